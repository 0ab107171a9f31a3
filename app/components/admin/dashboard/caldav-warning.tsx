import { Link } from "react-router";
import { Alert } from "~/components/ui/field";
import { type CaldavWarning, caldavWarningText } from "~/lib/caldav";
import { formatDateTime } from "~/lib/format";

/**
 * The dashboard's warning for CalDAV calendars in trouble (ADRs 335, 337): an app password that
 * stopped working, a server that is down or answers garbage — each with whose calendar it is and
 * when it last answered; its last known busy times keep counting.
 */
export function CaldavWarningCard({ warnings }: { warnings: CaldavWarning[] }) {
  if (!warnings.length) return null;
  return (
    <Alert tone="warning">
      <p className="font-semibold">
        {warnings.length === 1
          ? "Ein verbundener Kalender braucht Ihre Aufmerksamkeit."
          : `${warnings.length} verbundene Kalender brauchen Ihre Aufmerksamkeit.`}
      </p>
      <ul className="mt-1 space-y-0.5" data-testid="caldav-warnings">
        {warnings.map((w) => (
          <li key={`${w.admin}-${w.host}`} className="break-words">
            Kalender von {w.admin} ({w.host}): {caldavWarningText(w)}
            {w.lastOkAt ? ` Zuletzt erreichbar ${formatDateTime(w.lastOkAt)} Uhr.` : ""}
          </li>
        ))}
      </ul>
      <p className="mt-1">
        <Link to="/admin/account#kalender" className="underline">
          Zu Ihrem Kalender
        </Link>
      </p>
    </Alert>
  );
}
