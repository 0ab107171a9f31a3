import ICAL from "ical.js";
import { type CalendarEntry, calendarFile, calendarUid } from "~/lib/calendar";
import {
  type BusySpan,
  busyOfCalendar,
  epochOf,
  mergeSpans,
  tzidOf,
} from "../team-calendar/ics-busy.server";

/**
 * The iCalendar side of CalDAV (ADR 335) as PURE functions — strings in, plain JSON out — so that
 * they can run inside the calendar worker (a worker thread with memory and time limits for
 * untrusted iCalendar text) once it lands; until then the CalDAV client calls them directly.
 * Nothing here touches the network, the database or the configuration.
 */

/** The busy spans of a calendar's objects (calendar-query answers) and what could not be read. */
export type ObjectsBusy = { spans: BusySpan[]; cutOff: number; invalid: number };

/**
 * The busy intervals of the objects of one calendar overlapping [from, to) (epoch ms): every
 * object (one VCALENDAR each) is parsed on its own, so one broken object costs only itself; all
 * events (with their time zones) are then expanded under one budget, as one feed. Events whose
 * UID is in `skipUids` (the demos the portal wrote itself) block nothing.
 */
export function busyOfObjects(
  objects: readonly string[],
  from: number,
  to: number,
  skipUids: readonly string[] = [],
): ObjectsBusy {
  const components: unknown[] = [];
  let invalid = 0;
  for (const text of objects) {
    try {
      const jcal = ICAL.parse(text);
      const root = (Array.isArray(jcal[0]) ? jcal[0] : jcal) as unknown[];
      if (root[0] !== "vcalendar" || !Array.isArray(root[2])) throw new Error("no VCALENDAR");
      components.push(...(root[2] as unknown[]));
    } catch {
      invalid += 1;
    }
  }
  const root = new ICAL.Component(["vcalendar", [], components] as unknown as unknown[]);
  try {
    const { spans, cutOff } = busyOfCalendar(root, new Date(from), new Date(to), new Set(skipUids));
    return { spans, cutOff, invalid };
  } catch {
    return { spans: [], cutOff: 0, invalid: invalid + 1 };
  }
}

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
