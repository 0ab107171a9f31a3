import { TZDate } from "@date-fns/tz";
import ICAL from "ical.js";
import { BOOKING_TIME_ZONE } from "~/lib/booking-calendar";

/** One busy interval in epoch milliseconds: all that is kept of a team calendar's event. */
export type BusySpan = { start: number; end: number };

/** Occurrences expanded per feed at most (a runaway RRULE cannot stall the worker). */
export const MAX_OCCURRENCES = 20_000;

const WEEK_MS = 7 * 86_400_000;

const isIanaZone = (tzid: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tzid });
    return true;
  } catch {
    return false;
  }
};

/**
 * An ICAL.Time as epoch ms. UTC and zones defined in the feed (VTIMEZONE) are ical.js's; a TZID
 * without a definition is looked up as an IANA name (Google and Nextcloud use them); floating
 * times and dates are read as Berlin time, like every time in the app.
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

/** Free (TRANSP:TRANSPARENT) and cancelled events do not block anything. */
function blocks(component: ICAL.Component): boolean {
  const transp = String(component.getFirstPropertyValue("transp") ?? "").toUpperCase();
  const status = String(component.getFirstPropertyValue("status") ?? "").toUpperCase();
  return transp !== "TRANSPARENT" && status !== "CANCELLED";
}

/**
 * The busy intervals of an iCalendar text that overlap [from, to): recurring events expanded
 * (RRULE, RDATE, EXDATE and moved or cancelled occurrences via RECURRENCE-ID), time zones
 * applied; nothing but start and end is kept. Throws on a text that is not iCalendar.
 */
export function busySpansOf(text: string, from: Date, to: Date): BusySpan[] {
  const root = new ICAL.Component(ICAL.parse(text));
  if (root.name !== "vcalendar") throw new Error("Keine iCalendar-Datei (VCALENDAR fehlt).");
  const lo = from.getTime();
  const hi = to.getTime();
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  for (const component of root.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component);
    if (event.isRecurrenceException()) exceptions.push(event);
    else masters.set(event.uid ?? `anon-${masters.size}`, event);
  }
  for (const exception of exceptions) {
    const master = masters.get(exception.uid);
    if (master) master.relateException(exception);
    else masters.set(`${exception.uid}-${exceptions.indexOf(exception)}`, exception);
  }
  const spans: BusySpan[] = [];
  let budget = MAX_OCCURRENCES;
  const add = (
    component: ICAL.Component,
    tzid: string | null,
    start: ICAL.Time,
    end: ICAL.Time,
  ) => {
    if (!blocks(component)) return;
    const s = epochOf(start, tzid);
    let e = epochOf(end, tzid);
    if (e <= s) e = s + (start.isDate ? 86_400_000 : 0);
    if (e > lo && s < hi && e > s) spans.push({ start: s, end: e });
  };
  for (const event of masters.values()) {
    if (!event.startDate) continue;
    const tzid = tzidOf(event);
    if (!event.isRecurring()) {
      add(event.component, tzid, event.startDate, event.endDate ?? event.startDate);
      continue;
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next && budget > 0; next = iterator.next()) {
      budget--;
      const nominal = epochOf(next, tzid);
      // Long before the window: skipped cheaply (a moved occurrence counts through its own VEVENT).
      if (nominal < lo - WEEK_MS) continue;
      const details = event.getOccurrenceDetails(next);
      const occurrenceTzid = tzidOf(details.item) ?? tzid;
      const start = epochOf(details.startDate, occurrenceTzid);
      if (start >= hi && nominal >= hi) break;
      add(details.item.component, occurrenceTzid, details.startDate, details.endDate);
    }
  }
  // Moved occurrences also count at their own time (one moved into the window from far before it).
  for (const exception of exceptions) {
    if (exception.startDate)
      add(exception.component, tzidOf(exception), exception.startDate, exception.endDate);
  }
  return mergeSpans(spans);
}

/** Sorted, overlapping and touching intervals joined. */
export function mergeSpans(spans: BusySpan[]): BusySpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: BusySpan[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
