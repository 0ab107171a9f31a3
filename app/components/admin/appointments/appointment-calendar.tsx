import { Form, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import type { AppointmentJson } from "~/lib/appointments";
import { formatDateTime } from "~/lib/format";

/**
 * What the team's CalDAV calendars say about a built-in booking (ADRs 336–338): who takes it, a
 * booking made while a calendar could not answer, and an edit made in the calendar — "im Kalender
 * verschoben auf …" or "im Kalender gelöscht" — with one click to move or cancel the booking
 * properly (the visitor is mailed as after any change; the calendar edit itself mails nobody).
 */
export function AppointmentCalendar({
  a,
  changeable,
}: {
  a: AppointmentJson;
  changeable: boolean;
}) {
  const { pathname, search } = useLocation();
  const { host, note, change } = a.calendar;
  if (!host && !note && !change) return null;
  const back = `${pathname}${search}`;
  return (
    <div className="mt-3 space-y-2 text-sm" data-testid="appointment-calendar">
      {host ? (
        <p className="text-slate-600 dark:text-slate-300">Übernimmt: {host.username}</p>
      ) : null}
      {note ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 p-2 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200">
          {note}
        </p>
      ) : null}
      {change && changeable ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-2 rounded-lg border border-indigo-200 bg-indigo-50 p-2 text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950 dark:text-indigo-100"
        >
          <p className="basis-full">
            {change.kind === "moved"
              ? `Im Kalender verschoben auf ${formatDateTime(change.start)} Uhr.`
              : "Im Kalender gelöscht."}{" "}
            Der Kunde weiß davon noch nichts.
          </p>
          <Form method="post" action={back} preventScrollReset>
            <input type="hidden" name="id" value={a.id} />
            {change.kind === "moved" ? (
              <>
                <input type="hidden" name="intent" value="calendar-move" />
                <input type="hidden" name="startTime" value={change.start} />
                <Button type="submit" size="sm">
                  Termin auf {formatDateTime(change.start)} Uhr verschieben
                </Button>
              </>
            ) : (
              <>
                <input type="hidden" name="intent" value="cancel" />
                <Button type="submit" size="sm" variant="danger">
                  Termin absagen
                </Button>
              </>
            )}
          </Form>
        </div>
      ) : null}
    </div>
  );
}
