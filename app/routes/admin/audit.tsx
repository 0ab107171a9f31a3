import { Form, Link } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { inputClass } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { linedRowClass, TableHead } from "~/components/ui/table";
import {
  AUDIT_ACTIONS,
  AUDIT_LABELS,
  type AuditQuery,
  isAuditAction,
  parseAuditQuery,
} from "~/lib/audit";
import { formatDateTime } from "~/lib/format";
import { requireAdmin } from "~/server/accounts/auth.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { listAudit } from "~/server/privacy/audit.server";
import type { Route } from "./+types/audit";

export const meta: Route.MetaFunction = () => [{ title: "Protokoll" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const query = parseAuditQuery(new URL(request.url).searchParams);
  return { query, ...listAudit(query), keptDays: getConfiguration().retention.auditDays };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

function hrefFor(query: AuditQuery, page: number, path = "/admin/audit") {
  const params = new URLSearchParams();
  if (query.actor) params.set("actor", query.actor);
  if (query.action) params.set("action", query.action);
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  if (page > 1) params.set("page", String(page));
  const s = params.toString();
  return `${path}${s ? `?${s}` : ""}`;
}

const label = "mb-1 block text-sm font-medium";

/** Who did what with personal data, when: filters by admin, action and date (works without JS). */
export default function AuditPage({ loaderData }: Route.ComponentProps) {
  const { query, entries, total, page, totalPages, actors, keptDays } = loaderData;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Protokoll ({total})</h1>
        <div className="flex flex-wrap gap-2">
          {/* A file download: a plain link (no client navigation), with the filters shown. */}
          <a
            href={hrefFor(query, 1, "/admin/audit.csv")}
            download
            className={buttonClass("secondary", "sm")}
          >
            Als CSV exportieren
          </a>
          <Link to="/admin/settings" className={buttonClass("secondary", "sm")}>
            Zurück zu den Einstellungen
          </Link>
        </div>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Aktionen mit personenbezogenen Daten und Änderungen am Zugang (Anmeldungen und Fehlversuche,
        Status, Zuweisungen, Exporte, Downloads, Löschungen, Einstellungen, Webhooks, Einladungen,
        Konten, Passwörter, Aufbewahrung). Einträge werden nach {keptDays} Tagen gelöscht.
      </p>
      <Form
        method="get"
        role="search"
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5 dark:border-slate-800 dark:bg-slate-900"
      >
        <div>
          <label htmlFor="actor" className={label}>
            Wer
          </label>
          <select id="actor" name="actor" defaultValue={query.actor} className={inputClass}>
            <option value="">Alle</option>
            {actors.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="action" className={label}>
            Aktion
          </label>
          <select id="action" name="action" defaultValue={query.action} className={inputClass}>
            <option value="">Alle</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {AUDIT_LABELS[a]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="from" className={label}>
            Von
          </label>
          <input
            id="from"
            name="from"
            type="date"
            defaultValue={query.from}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="to" className={label}>
            Bis
          </label>
          <input id="to" name="to" type="date" defaultValue={query.to} className={inputClass} />
        </div>
        <div className="flex items-end">
          <button type="submit" className={buttonClass("primary", "sm")}>
            Filter anwenden
          </button>
        </div>
      </Form>
      {entries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:text-slate-400 dark:border-slate-700">
          Keine Einträge gefunden.
        </p>
      ) : (
        // Scrolls sideways on a phone: focusable and named, so a keyboard can scroll it too.
        <Card
          className="overflow-x-auto p-0"
          tabIndex={0}
          role="region"
          aria-label="Protokolleinträge"
        >
          {/* Below 640 px each entry is a card (cells stacked, each value with its label): the
              "Aktion" column is not cut off at the right edge of a phone. */}
          <table className="w-full text-left text-sm">
            <TableHead
              columns={["Zeitpunkt", "Wer", "Über", "Aktion", "Ziel", "Details"]}
              className="border-b border-slate-200 text-slate-600 max-sm:hidden dark:border-slate-800 dark:text-slate-400"
              cellClassName="px-4 py-2 font-semibold"
            />
            <tbody className="max-sm:block">
              {entries.map((e) => (
                <tr
                  key={e.id}
                  className={`${linedRowClass} max-sm:block max-sm:space-y-1 max-sm:px-4 max-sm:py-3`}
                  data-testid="audit-row"
                >
                  <td className={`${cell} whitespace-nowrap`}>
                    <CellLabel>Zeitpunkt</CellLabel>
                    {formatDateTime(e.at)}
                  </td>
                  <td className={cell}>
                    <CellLabel>Wer</CellLabel>
                    {e.actor}
                  </td>
                  <td className={`${cell} whitespace-nowrap`} data-audit-via="">
                    <CellLabel>Über</CellLabel>
                    {e.via}
                  </td>
                  <td className={cell} data-audit-action="">
                    <CellLabel>Aktion</CellLabel>
                    {isAuditAction(e.action) ? AUDIT_LABELS[e.action] : e.action}
                  </td>
                  <td className={`${cell} break-words`}>
                    <CellLabel>Ziel</CellLabel>
                    {e.target}
                  </td>
                  <td className={`${cell} break-words`}>
                    {e.details ? <CellLabel>Details</CellLabel> : null}
                    {e.details ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <Pagination
        page={page}
        totalPages={totalPages}
        text={`Seite ${page} von ${totalPages}`}
        hrefFor={(p) => hrefFor(query, p)}
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen des Protokolls" />;
}

const cell = "px-4 py-2 max-sm:block max-sm:p-0";

/** A value's label in the stacked cards below 640 px (the table's header says it above). */
function CellLabel({ children }: { children: string }) {
  return (
    <span className="mr-1 font-sans text-xs font-medium text-slate-500 sm:hidden dark:text-slate-400">
      {children}:
    </span>
  );
}
