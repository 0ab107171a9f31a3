import { Link } from "react-router";
import { Card } from "~/components/ui/card";

type PromiseStats = {
  dueToday: number;
  overdue: number;
  last30Days: { kept: number; late: number; missed: number; share: number | null };
};

const percent = new Intl.NumberFormat("de-DE", { style: "percent", maximumFractionDigits: 0 });

/**
 * "Versprechen" on the dashboard (ADR 346): the first contacts and trial versions due today and
 * overdue (each a link to the list with that filter), and the share kept of the promises due in
 * the last 30 days — kept = done by the due time, to the second.
 */
export function PromisesCard({ stats }: { stats: PromiseStats }) {
  const { kept, late, missed, share } = stats.last30Days;
  const total = kept + late + missed;
  return (
    <section aria-labelledby="promises-heading" data-promises-card="">
      <Card className="space-y-4 p-5">
        <div>
          <h2 id="promises-heading" className="text-lg font-semibold">
            Versprechen
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Erstkontakt und Testversion, wie die Startseite sie verspricht.
          </p>
        </div>
        <dl className="grid gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-slate-600 dark:text-slate-300">Heute fällig</dt>
            <dd className="mt-1 text-3xl font-bold" data-promises-due="">
              <Link to="/admin/requests?promise=due" className="hover:underline">
                {stats.dueToday}
              </Link>
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600 dark:text-slate-300">Überfällig</dt>
            <dd
              className={`mt-1 text-3xl font-bold ${stats.overdue ? "text-red-700 dark:text-red-300" : ""}`}
              data-promises-overdue=""
            >
              <Link to="/admin/requests?promise=overdue" className="hover:underline">
                {stats.overdue}
              </Link>
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600 dark:text-slate-300">
              Eingehalten (letzte 30 Tage)
            </dt>
            <dd className="mt-1" data-promises-kept="">
              <span className="text-3xl font-bold">
                {share === null ? "–" : percent.format(share)}
              </span>
              <span className="block text-sm text-slate-600 dark:text-slate-300">
                {total
                  ? `${kept} von ${total} fällig gewordenen Versprechen rechtzeitig`
                  : "Noch keine Versprechen fällig geworden"}
              </span>
            </dd>
          </div>
        </dl>
      </Card>
    </section>
  );
}
