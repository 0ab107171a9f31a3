import { buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { formatDateTime, formatRequestId } from "~/lib/format";
import type { RequestJson } from "~/lib/request-json";
import { type RequestListQuery, requestListSearch } from "~/lib/request-list";

/** A request that may be the same person's (same e-mail or phone), offered for the export. */
export type ExportCandidateItem = { id: number; name: string; createdAt: string; by: string[] };

/**
 * Data-protection actions on one request: export its data (ZIP), erase it (asks first). Requests
 * with the same e-mail or phone are only offered for the export, one by one (ADR 262): a GET form
 * with a checkbox each (works without JS), after a reminder to verify the person's identity.
 */
export function PrivacyActions({
  request,
  action,
  candidates = [],
}: {
  request: RequestJson;
  action: string;
  candidates?: ExportCandidateItem[];
}) {
  return (
    <div className="space-y-3" data-testid="privacy-actions">
      <div className="flex flex-wrap items-center gap-2">
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
      {candidates.length ? (
        <form
          method="get"
          action={`/api/admin/requests/${request.id}/export`}
          className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          <fieldset>
            <legend className="mb-1 font-semibold">
              Weitere Anfragen in den Export aufnehmen?
            </legend>
            <p className="mb-2 text-slate-700 dark:text-slate-300">
              Diese Anfragen haben dieselbe E-Mail-Adresse oder Telefonnummer. Das beweist nicht,
              dass sie von derselben Person stammen: Prüfen Sie zuerst die Identität der anfragenden
              Person und nehmen Sie nur Anfragen auf, die nachweislich zu ihr gehören.
            </p>
            <ul className="mb-3 space-y-1">
              {candidates.map((c) => (
                <li key={c.id}>
                  <label className="inline-flex items-center gap-2">
                    <input type="checkbox" name="mit" value={c.id} className="size-4" />
                    <span>
                      {`#${formatRequestId(c.id)} – ${c.name}, vom ${formatDateTime(c.createdAt)} (gleiche ${c.by.join(" und ")})`}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            <button type="submit" className={buttonClass("secondary", "sm")}>
              Mit den ausgewählten Anfragen exportieren
            </button>
          </fieldset>
        </form>
      ) : null}
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
