import { DEMO_REQUEST, type DemoRequest } from "~/lib/demo-request";
import { formatDateTime } from "~/lib/format";

/** The demo mode's sample request, shown where a real request's data would be. */
export function DemoRequestCard({ request = DEMO_REQUEST }: { request?: DemoRequest }) {
  const rows: [string, string][] = [
    ["Name", request.name],
    ["E-Mail", request.email],
    ["Nachricht", request.message],
    ["Priorität", request.priority],
    ["Kategorie", request.category],
    ["Status", request.status],
    ["Erstellt am", formatDateTime(request.created_at)],
    ["Gewählte Zeit", request.selectedTime ? `${formatDateTime(request.selectedTime)} Uhr` : "–"],
    ["Terminart", request.eventTypeKey],
  ];
  return (
    <section
      aria-label="Beispielanfrage (Demo-Modus)"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40"
      data-testid="demo-request"
    >
      <p className="font-semibold text-amber-900 dark:text-amber-100">
        Demo-Modus: Beispielanfrage, es wird nichts gebucht.
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium text-slate-700 dark:text-slate-300">{term}</dt>
            <dd className="text-slate-900 dark:text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
