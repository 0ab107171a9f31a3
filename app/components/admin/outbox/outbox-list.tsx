import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";
import type { OutboxStatusView } from "~/lib/outbox-status";

const TONES: Record<OutboxStatusView["tone"], string> = {
  waiting: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  done: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  retrying: "bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

/** What one outbox row (a mail or a webhook delivery) shows. */
export type OutboxEntry = {
  key: number;
  /** The status pill (outboxStatusView): retrying and failed rows say so while collapsed. */
  status: OutboxStatusView;
  /** The last error, shown in the collapsed row too (one line). */
  error?: string | null;
  title: ReactNode;
  /** The recipient line under the title. */
  to: ReactNode;
  /** Times (created, sent, scheduled). */
  meta: ReactNode;
  /** Opened with the row: errors, content, the retry form. */
  details: ReactNode;
};

/**
 * The outbox page's lists (mails, webhook deliveries): one card per row, collapsed to status, title,
 * recipient and times; a `<details>`, so it opens without JavaScript.
 */
export function OutboxList({ entries, empty }: { entries: OutboxEntry[]; empty: string }) {
  if (!entries.length)
    return (
      <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:text-slate-400 dark:border-slate-700">
        {empty}
      </p>
    );
  return (
    <ul className="space-y-3">
      {entries.map((entry) => (
        <li key={entry.key}>
          <Card className="p-4">
            <details>
              {/* Phones: the state, then title and recipient at full width, then the times. */}
              <summary className="flex cursor-pointer flex-col items-start gap-1 sm:flex-row sm:flex-wrap sm:items-center sm:gap-3">
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[entry.status.tone]}`}
                  data-outbox-status={entry.status.tone}
                >
                  {entry.status.label}
                </span>
                <span className="w-full min-w-0 sm:w-auto sm:flex-1">
                  <span className="block font-medium">{entry.title}</span>
                  <span className="block break-all text-sm text-slate-500 dark:text-slate-400">
                    {entry.to}
                  </span>
                  {entry.error && entry.status.tone !== "done" ? (
                    <span className="block truncate text-sm text-red-700 dark:text-red-300">
                      Letzter Fehler: {entry.error}
                    </span>
                  ) : null}
                </span>
                <span className="text-xs text-slate-500 dark:text-slate-400">{entry.meta}</span>
              </summary>
              {entry.details}
            </details>
          </Card>
        </li>
      ))}
    </ul>
  );
}
