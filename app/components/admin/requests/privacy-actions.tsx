import { ConfirmAction } from "~/components/ui/confirm-action";
import { formatRequestId } from "~/lib/format";
import type { RequestJson } from "~/server/requests/serialize.server";

/** Data-protection actions on one request: erase it (asks first). */
export function PrivacyActions({ request, action }: { request: RequestJson; action: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="privacy-actions">
      <ConfirmAction
        action={action}
        fields={{ intent: "delete", id: String(request.id) }}
        title="Anfrage löschen"
        message={`Möchten Sie die Anfrage #${formatRequestId(request.id)} wirklich endgültig löschen? Alle Daten, Dateien, Termine und E-Mails dazu werden entfernt.`}
        label="Anfrage löschen"
      />
    </div>
  );
}
