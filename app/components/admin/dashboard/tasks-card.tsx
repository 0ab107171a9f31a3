import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

type Counts = { overdue: number; today: number; week: number; later: number };

/**
 * "Meine Aufgaben" on the dashboard (ADR 351): the signed-in admin's open follow-ups — overdue,
 * today, the rest of this week — and the way to the tasks page.
 */
export function TasksCard({ counts }: { counts: Counts }) {
  const figures = [
    ["Überfällig", counts.overdue, "text-red-700 dark:text-red-300"],
    ["Heute", counts.today, ""],
    ["Diese Woche", counts.week, ""],
  ] as const;
  return (
    <section aria-labelledby="tasks-card-heading">
      <Card className="flex flex-wrap items-center gap-x-8 gap-y-3 p-5">
        <h2 id="tasks-card-heading" className="text-lg font-semibold">
          Meine Aufgaben
        </h2>
        <dl className="flex flex-1 flex-wrap gap-x-6 gap-y-2">
          {figures.map(([label, value, tone]) => (
            <div key={label} className="flex items-baseline gap-2">
              <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
              <dd className={`text-2xl font-bold ${value ? tone : ""}`}>{value}</dd>
            </div>
          ))}
        </dl>
        <Link to="/admin/aufgaben" className={buttonClass("secondary", "sm")}>
          Aufgaben öffnen
        </Link>
      </Card>
    </section>
  );
}
