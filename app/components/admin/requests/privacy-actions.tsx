import { buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { formatRequestId } from "~/lib/format";
import type { RequestJson } from "~/lib/request-json";
import { type RequestListQuery, requestListSearch } from "~/lib/request-list";

/** Data-protection actions on one request: export the person's data (ZIP), erase it (asks first). */
export function PrivacyActions({ request, action }: { request: RequestJson; action: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="privacy-actions">
      <a
        className={buttonClass("secondary", "sm")}
        href={`/api/admin/requests/${request.id}/export`}
        download
      >
        Daten exportieren
      </a>
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

/** Downloads the list with the current filters as CSV (all pages). */
export function CsvExportLink({ query }: { query: RequestListQuery }) {
  const { page: _page, ...filters } = query;
  return (
    <a
      className={buttonClass("secondary", "sm")}
      href={`/api/admin/requests/export.csv${requestListSearch(filters)}`}
      download
    >
      Als CSV exportieren
    </a>
  );
}
