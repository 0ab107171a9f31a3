import type { Attribution } from "~/lib/attribution";

const ROWS: [keyof Attribution, string][] = [
  ["source", "Quelle (utm_source)"],
  ["medium", "Medium (utm_medium)"],
  ["campaign", "Kampagne (utm_campaign)"],
  ["referrer", "Verweisende Seite"],
  ["landingPath", "Einstiegsseite"],
];

/** Where the lead came from (full-screen view): utm values, external referrer, landing path. */
export function LeadOrigin({ attribution }: { attribution: Attribution }) {
  const known = ROWS.filter(([key]) => attribution[key]);
  return (
    <section
      aria-labelledby="lead-origin-title"
      className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 id="lead-origin-title" className="mb-3 text-base font-semibold">
        Herkunft
      </h3>
      {known.length ? (
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          {known.map(([key, label]) => (
            <div key={key} className="contents">
              <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
              <dd className="break-all">{attribution[key]}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">Keine Herkunftsangaben.</p>
      )}
    </section>
  );
}
