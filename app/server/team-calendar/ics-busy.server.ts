import { TZDate } from "@date-fns/tz";
import ICAL from "ical.js";
import { BOOKING_TIME_ZONE } from "~/lib/booking-calendar";

/** One busy interval in epoch milliseconds: all that is kept of a team calendar's event. */
export type BusySpan = { start: number; end: number };

/**
 * Occurrences expanded per recurring event at most (a runaway RRULE cannot stall the worker):
 * each event has its own budget, so one long series cannot starve the others. Simple daily and
 * weekly series start near the window (their past is skipped arithmetically), so the budget
 * counts only the years around now; a series that still exhausts it is reported, not hidden.
 */
export const MAX_OCCURRENCES = 20_000;
/** All events of one feed together at most (the worker's time per feed stays bounded). */
export const MAX_FEED_OCCURRENCES = 400_000;

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

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
export function epochOf(time: ICAL.Time, tzid: string | null): number {
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

export const tzidOf = (event: ICAL.Event) =>
  (event.component.getFirstProperty("dtstart")?.getParameter("tzid") as string | undefined) ?? null;

/** Free (TRANSP:TRANSPARENT) and cancelled events do not block anything. */
function blocks(component: ICAL.Component): boolean {
  const transp = String(component.getFirstPropertyValue("transp") ?? "").toUpperCase();
  const status = String(component.getFirstPropertyValue("status") ?? "").toUpperCase();
  return transp !== "TRANSPARENT" && status !== "CANCELLED";
}

/**
 * Where the expansion of a recurring event may start: simple daily/weekly series without COUNT
 * (stand-ups, lunch breaks, jours fixes) jump close to the window by whole periods, which keeps
 * their wall-clock time and weekdays; every other rule starts at its DTSTART.
 */
function expansionStart(event: ICAL.Event, tzid: string | null, lo: number): ICAL.Time {
  const start = event.startDate;
  const rules = event.component.getAllProperties("rrule");
  if (rules.length !== 1) return start;
  const rule = rules[0].getFirstValue() as ICAL.Recur;
  const parts = Object.keys(rule.parts ?? {});
  if (rule.count || !(rule.freq === "DAILY" || rule.freq === "WEEKLY")) return start;
  if (parts.some((p) => p !== "BYDAY")) return start;
  const interval = Math.max(1, rule.interval || 1);
  // Whole weeks keep the weekday pattern of BYDAY; whole intervals keep the series' rhythm.
  const periodDays = rule.freq === "DAILY" && !parts.length ? interval : 7 * interval;
  const gapDays = Math.floor((lo - 2 * WEEK_MS - epochOf(start, tzid)) / DAY_MS);
  const periods = Math.floor(gapDays / periodDays);
  if (periods <= 0) return start;
  const shifted = start.clone();
  // Wall-clock days in the event's zone (ical.js iterates in it as well).
  shifted.adjust(periods * periodDays, 0, 0, 0);
  return shifted;
}

/** The busy intervals of a feed and how many recurring events were cut off by a budget. */
export type FeedBusy = { spans: BusySpan[]; cutOff: number };

/**
 * The busy intervals of an iCalendar text that overlap [from, to): recurring events expanded
 * (RRULE, RDATE, EXDATE and moved or cancelled occurrences via RECURRENCE-ID), time zones
 * applied; nothing but start and end is kept. Throws on a text that is not iCalendar.
 */
export function busySpansOf(text: string, from: Date, to: Date): BusySpan[] {
  return feedBusyOf(text, from, to).spans;
}

/** `busySpansOf` plus the number of recurring events whose budget ran out (`cutOff`). */
export function feedBusyOf(text: string, from: Date, to: Date): FeedBusy {
  const root = new ICAL.Component(ICAL.parse(text));
  if (root.name !== "vcalendar") throw new Error("Keine iCalendar-Datei (VCALENDAR fehlt).");
  return busyOfCalendar(root, from, to);
}

/**
 * The busy intervals of a parsed VCALENDAR (one feed, or the objects of a CalDAV calendar joined
 * into one, ADR 335) under one feed budget; events whose UID is in `skipUids` block nothing.
 */
export function busyOfCalendar(
  root: ICAL.Component,
  from: Date,
  to: Date,
  skipUids: ReadonlySet<string> = new Set(),
): FeedBusy {
  const lo = from.getTime();
  const hi = to.getTime();
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  for (const component of root.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component);
    if (event.uid && skipUids.has(event.uid)) continue;
    if (event.isRecurrenceException()) exceptions.push(event);
    else masters.set(event.uid ?? `anon-${masters.size}`, event);
  }
  for (const exception of exceptions) {
    const master = masters.get(exception.uid);
    if (master) master.relateException(exception);
    else masters.set(`${exception.uid}-${exceptions.indexOf(exception)}`, exception);
  }
  const spans: BusySpan[] = [];
  let feedBudget = MAX_FEED_OCCURRENCES;
  let cutOff = 0;
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
    const iterator = event.iterator(expansionStart(event, tzid, lo));
    let budget = Math.min(MAX_OCCURRENCES, feedBudget);
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (budget-- <= 0) {
        cutOff++;
        break;
      }
      feedBudget--;
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
  return { spans: mergeSpans(spans), cutOff };
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
