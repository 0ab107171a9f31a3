import { BOOKING_TIME_ZONE } from "~/lib/booking-calendar";
import { type CalendarEntry, calendarFile, calendarUid } from "~/lib/calendar";
import { expandCalendar, type JobOptions } from "../calendar-worker/calendar-worker.server";
import type { BusySpan, CalendarJob, EventTimes } from "../calendar-worker/job";

/**
 * The iCalendar side of CalDAV (ADR 335): a calendar server's answers are untrusted text, so every
 * one of them is parsed — and its recurring events expanded — by the calendar worker (ADR 320),
 * like a team-calendar feed; nothing here parses iCalendar on the server's main thread. Nothing
 * here touches the network, the database or the configuration.
 */

/** The busy spans of a calendar's objects (calendar-query answers) and what could not be read. */
export type ObjectsBusy = {
  spans: BusySpan[];
  cutOff: number;
  invalid: number;
  /** Why the worker gave no answer (time or memory limit, busy): the calendar counts as unread. */
  failed: string | null;
  /** The worker had no time for it (its queue full, the caller's deadline passed; ADR 356). */
  overloaded?: boolean;
};

const window = (from: number, to: number) => ({
  from: new Date(from).toISOString(),
  to: new Date(to).toISOString(),
  floatingTimeZone: BOOKING_TIME_ZONE,
});

/**
 * The busy intervals of the objects of one calendar overlapping [from, to) (epoch ms): every
 * object (one VCALENDAR each) is parsed on its own, so one broken object costs only itself; the
 * events (with their time zones) are then expanded under one feed's budget. Events whose UID is in
 * `skipUids` (the demos the portal wrote itself) block nothing.
 */
export async function busyOfObjects(
  objects: readonly string[],
  from: number,
  to: number,
  skipUids: readonly string[] = [],
  work: JobOptions = {},
): Promise<ObjectsBusy> {
  const answer = await expandCalendar(
    {
      ics: objects.join("\r\n"),
      ...window(from, to),
      kind: "objects",
      skipUids: [...skipUids],
    },
    work,
  );
  if (answer.ok)
    return {
      spans: answer.busy,
      cutOff: answer.cutOff,
      invalid: answer.invalid ?? 0,
      failed: null,
    };
  if (answer.reason === "invalid")
    return { spans: [], cutOff: 0, invalid: Math.max(1, objects.length), failed: null };
  return {
    spans: [],
    cutOff: 0,
    invalid: 0,
    failed: answer.message,
    overloaded: answer.reason === "busy" || answer.reason === "deadline",
  };
}

/** Why the worker read no answer: `invalid` (no iCalendar) or the worker's own limit (busy, time). */
export class CalendarUnread extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** One job of the worker that reads a text once (nothing expanded); throws CalendarUnread. */
async function readOnce(
  text: string,
  from: number,
  to: number,
  kind: CalendarJob["kind"],
  work: JobOptions = {},
) {
  const answer = await expandCalendar({ ics: text, ...window(from, to), kind }, work);
  if (!answer.ok) throw new CalendarUnread(answer.reason, answer.message);
  return answer;
}

/**
 * The busy periods of a free-busy-query answer (a VFREEBUSY, RFC 4791 §7.10) within [from, to):
 * every FREEBUSY period except FBTYPE=FREE. Throws on a text that is not iCalendar.
 */
export async function freeBusySpans(
  text: string,
  from: number,
  to: number,
  work: JobOptions = {},
): Promise<BusySpan[]> {
  return (await readOnce(text, from, to, "freebusy", work)).busy;
}

export type { EventTimes };

/**
 * The first (master) event of an object; null when there is none or it has no start. Throws on a
 * text that is not iCalendar.
 */
export async function eventTimesOf(text: string): Promise<EventTimes | null> {
  return (await readOnce(text, 0, 0, "event")).event ?? null;
}

/** What a demo event carries (ADR 336): never the visitor as ATTENDEE or ORGANIZER. */
export type DemoEvent = {
  /** The booking's uid (appointments.external_uid). */
  bookingUid: string;
  sequence: number;
  start: number;
  end: number;
  summary: string;
  description: string;
  videoUrl: string | null;
  stamp: number;
};

/**
 * The UID of a booking's event in a team calendar: its own, not the visitor's invite's, so an
 * invite imported into the same calendar never collides with it (`no-uid-conflict`).
 */
export const teamEventBookingUid = (bookingUid: string) => `team-${bookingUid}`;
export const teamEventUid = (bookingUid: string) => calendarUid(teamEventBookingUid(bookingUid));

/** The iCalendar text of a demo event: no METHOD, no ORGANIZER, no ATTENDEE. */
export function demoEventText(event: DemoEvent): string {
  const entry: CalendarEntry = {
    bookingUid: teamEventBookingUid(event.bookingUid),
    sequence: event.sequence,
    start: new Date(event.start),
    end: new Date(event.end),
    summary: event.summary,
    description: event.description,
    location: event.videoUrl,
    url: event.videoUrl,
    stamp: new Date(event.stamp),
  };
  return calendarFile(entry);
}
