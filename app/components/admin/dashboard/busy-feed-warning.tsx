import { Link } from "react-router";
import { Alert } from "~/components/ui/field";
import {
  type BusyFeedStatus,
  busyFeedWarningHeadline,
  feedErrorLabel,
  feedIsIncomplete,
  lastSuccessLabel,
} from "~/lib/team-calendar";

/**
 * The dashboard's warning when a team calendar feed cannot be fetched or was cut off (a series
 * too long to expand; ADR 266): the headline and the note say which of the two it is.
 */
export function BusyFeedWarning({ feeds }: { feeds: BusyFeedStatus[] }) {
  if (!feeds.length) return null;
  const incomplete = feeds.filter(feedIsIncomplete).length;
  return (
    <Alert tone="warning">
      <p className="font-semibold">{busyFeedWarningHeadline(feeds)}</p>
      <ul className="mt-1 space-y-0.5">
        {feeds.map((feed) => (
          <li key={feed.id} className="break-all">
            {feed.url}: {feedErrorLabel(feed.lastError ?? "")} ({lastSuccessLabel(feed.fetchedAt)})
          </li>
        ))}
      </ul>
      <p className="mt-1">
        {incomplete < feeds.length
          ? "Bis er wieder antwortet, gelten seine zuletzt bekannten belegten Zeiten. "
          : ""}
        {incomplete
          ? "Zu lange Serientermine blockieren nur bis zu ihrer letzten eingelesenen Wiederholung. "
          : ""}
        <Link to="/admin/settings#teamCalendar" className="underline">
          Zu den Kalendern
        </Link>
      </p>
    </Alert>
  );
}
