import { DuplicateBadge } from "./earlier-requests";

/**
 * The row's extra badges, from the list page's data: earlier requests of the same person, and
 * "Neue Antwort" while a lead's reply by IMAP is unread (ADR 285).
 */
export function RowBadges({
  id,
  earlierCounts,
  replies,
}: {
  id: number;
  earlierCounts: Record<number, number>;
  replies: { newReplies: number[] };
}) {
  return (
    <>
      <DuplicateBadge count={earlierCounts[id]} />
      {replies.newReplies.includes(id) ? (
        <span
          className="inline-flex items-center rounded-full bg-indigo-700 px-2.5 py-0.5 text-xs font-semibold text-white dark:bg-indigo-400 dark:text-slate-950"
          data-new-reply-badge=""
        >
          Neue Antwort
        </span>
      ) : null}
    </>
  );
}
