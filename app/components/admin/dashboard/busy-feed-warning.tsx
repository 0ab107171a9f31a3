import { Link } from "react-router";
import { Alert } from "~/components/ui/field";
import { type BusyFeedStatus, feedErrorLabel, lastSuccessLabel } from "~/lib/team-calendar";

/** The dashboard's warning when a team calendar feed cannot be fetched (issue 28). */
export function BusyFeedWarning({ feeds }: { feeds: BusyFeedStatus[] }) {
  if (!feeds.length) return null;
  return (
    <Alert tone="warning">
      <p className="font-semibold">
        {feeds.length === 1
          ? "Ein Kalender des Teams ist gerade nicht erreichbar."
          : `${feeds.length} Kalender des Teams sind gerade nicht erreichbar.`}
      </p>
      <ul className="mt-1 space-y-0.5">
        {feeds.map((feed) => (
          <li key={feed.id} className="break-all">
            {feed.url}: {feedErrorLabel(feed.lastError ?? "")} ({lastSuccessLabel(feed.fetchedAt)})
          </li>
        ))}
      </ul>
      <p className="mt-1">
        Bis er wieder antwortet, gelten seine zuletzt bekannten belegten Zeiten.{" "}
        <Link to="/admin/settings#teamCalendar" className="underline">
          Zu den Kalendern
        </Link>
      </p>
    </Alert>
  );
}
