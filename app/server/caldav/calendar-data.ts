import { TZDate } from "@date-fns/tz";
import ICAL from "ical.js";
import { BOOKING_TIME_ZONE } from "~/lib/booking-calendar";
import { type CalendarEntry, calendarFile, calendarUid } from "~/lib/calendar";
import { expandCalendar } from "../calendar-worker/calendar-worker.server";
import { type BusySpan, mergeSpans } from "../calendar-worker/job";

/**
 * The iCalendar side of CalDAV (ADR 335): strings in, plain JSON out. What may loop — the
 * expansion of recurring events — runs in the calendar worker (ADR 320) like a team-calendar
 * feed; here only what reads each property once (joining objects, a VFREEBUSY's periods, an
 * event's own start). Nothing here touches the network, the database or the configuration.
 */

/** The busy spans of a calendar's objects (calendar-query answers) and what could not be read. */
export type ObjectsBusy = {
  spans: BusySpan[];
  cutOff: number;
  invalid: number;
  /** Why the worker gave no answer (time or memory limit, busy): the calendar counts as unread. */
  failed: string | null;
};

/**
 * The busy intervals of the objects of one calendar overlapping [from, to) (epoch ms): every
 * object (one VCALENDAR each) is parsed on its own, so one broken object costs only itself; the
 * events (with their time zones) are then joined into one calendar and expanded by the calendar
 * worker under one feed's budget. Events whose UID is in `skipUids` (the demos the portal wrote
 * itself) block nothing.
 */
export async function busyOfObjects(
  objects: readonly string[],
  from: number,
  to: number,
  skipUids: readonly string[] = [],
): Promise<ObjectsBusy> {
  const skip = new Set(skipUids);
  const components: ICAL.Component[] = [];
  let invalid = 0;
  for (const text of objects) {
    try {
      const root = new ICAL.Component(ICAL.parse(text));
      if (root.name !== "vcalendar") throw new Error("no VCALENDAR");
      for (const child of root.getAllSubcomponents()) {
        const uid = child.name === "vevent" ? child.getFirstPropertyValue("uid") : null;
        if (typeof uid === "string" && skip.has(uid)) continue;
        components.push(child);
      }
    } catch {
      invalid += 1;
    }
  }
  const joined = new ICAL.Component("vcalendar");
  joined.addPropertyWithValue("version", "2.0");
  joined.addPropertyWithValue("prodid", "-//Anfrage-Portal//CalDAV//DE");
  for (const component of components) joined.addSubcomponent(component);
  const answer = await expandCalendar({
    ics: joined.toString(),
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    floatingTimeZone: BOOKING_TIME_ZONE,
  });
  if (answer.ok) return { spans: answer.busy, cutOff: answer.cutOff, invalid, failed: null };
  if (answer.reason === "invalid")
    return { spans: [], cutOff: 0, invalid: invalid + 1, failed: null };
  return { spans: [], cutOff: 0, invalid, failed: answer.message };
}

const isIanaZone = (tzid: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tzid });
    return true;
  } catch {
    return false;
  }
};

/**
 * An ICAL.Time as epoch ms. UTC and zones defined in the text (VTIMEZONE) are ical.js's; a TZID
 * without a definition is looked up as an IANA name; floating times and dates are Berlin time.
 */
function epochOf(time: ICAL.Time, tzid: string | null): number {
  const floating = time.zone === ICAL.Timezone.localTimezone || !time.zone;
  if (!floating) return time.toJSDate().getTime();
  const zone = tzid && isIanaZone(tzid) ? tzid : BOOKING_TIME_ZONE;
  return new TZDate(
    time.year,
    time.month - 1,
    time.day,
    time.isDate ? 0 : time.hour,
    time.isDate ? 0 : time.minute,
    time.isDate ? 0 : time.second,
    zone,
  ).getTime();
}

const tzidOf = (event: ICAL.Event) =>
  (event.component.getFirstProperty("dtstart")?.getParameter("tzid") as string | undefined) ?? null;

/**
 * The busy periods of a free-busy-query answer (a VFREEBUSY, RFC 4791 §7.10) within [from, to):
 * every FREEBUSY period except FBTYPE=FREE. Throws on a text that is not iCalendar.
 */
export function freeBusySpans(text: string, from: number, to: number): BusySpan[] {
  const root = new ICAL.Component(ICAL.parse(text));
  const spans: BusySpan[] = [];
  for (const fb of root.getAllSubcomponents("vfreebusy")) {
    for (const prop of fb.getAllProperties("freebusy")) {
      const type = String(prop.getParameter("fbtype") ?? "BUSY").toUpperCase();
      if (type === "FREE") continue;
      for (const value of prop.getValues()) {
        const period = value as ICAL.Period;
        if (!period?.start) continue;
        const start = period.start.toJSDate().getTime();
        const end = period.getEnd().toJSDate().getTime();
        if (end > from && start < to && end > start) spans.push({ start, end });
      }
    }
  }
  return mergeSpans(spans);
}

/** A demo event as the calendar holds it now: what the sync compares against what was written. */
export type EventTimes = { uid: string; start: number; end: number; sequence: number };

/** The first (master) event of an object; null when there is none or it has no start. */
export function eventTimesOf(text: string): EventTimes | null {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const component of root.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component);
    if (event.isRecurrenceException() || !event.startDate) continue;
    const tzid = tzidOf(event);
    const start = epochOf(event.startDate, tzid);
    const end = event.endDate ? epochOf(event.endDate, tzid) : start;
    return { uid: event.uid ?? "", start, end, sequence: Number(event.sequence ?? 0) };
  }
  return null;
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
