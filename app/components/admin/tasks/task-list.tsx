import { Link, useFetcher } from "react-router";
import { AnswerBadge, FollowUpDoneButton } from "~/components/admin/requests/follow-up-section";
import { useDoneNote } from "~/components/admin/requests/work-answer";
import { Card } from "~/components/ui/card";
import {
  dueLabel,
  TASK_BUCKET_LABELS,
  TASK_BUCKETS,
  type TaskBucket,
  type TaskJson,
} from "~/lib/follow-ups";
import { formatRequestId } from "~/lib/format";

type Buckets = Record<TaskBucket, { items: TaskJson[]; total: number }>;

const DONE_KEY = "task-done";

/**
 * "Meine Aufgaben" (ADR 351): the admin's open follow-ups — overdue, today, this week, later —
 * each with its request, day, text, whether the lead answered meanwhile and "Erledigt" in one
 * click. With JS a finished task leaves the list and a line at its top takes the focus; without
 * JS the page comes back with a toast.
 */
export function TaskList({
  buckets,
  today,
  action,
}: {
  buckets: Buckets;
  today: string;
  action: string;
}) {
  const done = useFetcher({ key: DONE_KEY });
  const note = useDoneNote(done.state, done.data);
  const open = TASK_BUCKETS.reduce((n, b) => n + buckets[b].total, 0);
  return (
    <div className="space-y-6">
      {note.shown ? (
        <p
          ref={note.ref}
          tabIndex={-1}
          data-task-done=""
          className="rounded-lg bg-green-50 p-3 text-sm text-green-900 focus:outline-none dark:bg-green-950 dark:text-green-200"
        >
          Wiedervorlage erledigt.
        </p>
      ) : null}
      {open === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:text-slate-400 dark:border-slate-700">
          Keine offenen Wiedervorlagen. Setzen Sie eine in der Anfrage unter „Notizen“.
        </p>
      ) : null}
      {TASK_BUCKETS.filter((b) => buckets[b].total > 0).map((bucket) => (
        <section key={bucket} aria-labelledby={`tasks-${bucket}`} data-bucket={bucket}>
          <h2 id={`tasks-${bucket}`} className="mb-2 text-lg font-semibold">
            {TASK_BUCKET_LABELS[bucket]} ({buckets[bucket].total})
          </h2>
          <Card className="divide-y divide-slate-200 dark:divide-slate-800">
            <ul aria-labelledby={`tasks-${bucket}`}>
              {buckets[bucket].items.map((task) => (
                <li
                  key={task.id}
                  className="flex flex-wrap items-center gap-3 p-4"
                  data-task-request={task.requestId}
                >
                  <div className="min-w-0 flex-1">
                    <Link
                      to={`/admin/requests?requestId=${task.requestId}`}
                      className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      #{formatRequestId(task.requestId)} {task.requestName}
                    </Link>
                    <p className="text-sm text-slate-600 dark:text-slate-300">
                      <span
                        className={
                          bucket === "overdue"
                            ? "font-medium text-red-700 dark:text-red-300"
                            : undefined
                        }
                      >
                        {dueLabel(task.due, today)}
                      </span>
                      {task.text ? ` · ${task.text}` : ""}
                    </p>
                  </div>
                  <AnswerBadge followUp={task} />
                  <FollowUpDoneButton
                    requestId={task.requestId}
                    action={action}
                    name={`#${formatRequestId(task.requestId)} ${task.requestName}`}
                    fetcherKey={DONE_KEY}
                  />
                </li>
              ))}
            </ul>
            {buckets[bucket].total > buckets[bucket].items.length ? (
              <p className="p-4 text-sm text-slate-600 dark:text-slate-400">
                … und {buckets[bucket].total - buckets[bucket].items.length} weitere (die frühesten
                stehen oben).
              </p>
            ) : null}
          </Card>
        </section>
      ))}
    </div>
  );
}
