// The expansion of an iCalendar text into busy intervals (ADR 266, ADR 320), run by the calendar
// child (./child.ts) — never on the server's main thread in production. Imported by the child,
// which Node runs as it is: relative imports with their extension, no path aliases.
import { tzOffset } from "@date-fns/tz";
import ICAL from "ical.js";
import {
  type BusySpan,
  type CalendarAnswer,
  type CalendarJob,
  type CalendarLimits,
  type EventTimes,
  limitsOf,
  mergeSpans,
} from "./job.ts";
import { impossibleRule } from "./rules.ts";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const DEFAULT_FLOATING_ZONE = "Europe/Berlin";

/**
 * The iteration budget: ical.js's recurrence iterator runs an inner loop per occurrence (and a
 * YEARLY rule's start-up loop per year) that may never yield one; both are counted here, and a
 * rule whose budget is spent ends with StepBudgetSpent. Installed once per process.
 */
class StepBudgetSpent extends Error {}
let stepsLeft = Number.POSITIVE_INFINITY;
const iteratorMethods = ICAL.RecurIterator.prototype as unknown as Record<
  string,
  (...args: unknown[]) => unknown
>;
for (const name of ["check_contracting_rules", "expand_year_days"]) {
  const original = iteratorMethods[name];
  if (typeof original !== "function" || (original as { budgeted?: true }).budgeted) continue;
  const counted = function (this: unknown, ...args: unknown[]) {
    if (--stepsLeft < 0) throw new StepBudgetSpent();
    return original.apply(this, args);
  };
  iteratorMethods[name] = Object.assign(counted, { budgeted: true as const });
}

/** Whether a TZID names an IANA zone; asked per occurrence, so each name is looked up once. */
const ianaZones = new Map<string, boolean>();
const isIanaZone = (tzid: string) => {
  let known = ianaZones.get(tzid);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tzid });
      known = true;
    } catch {
      known = false;
    }
    // A feed names a handful of zones; a hostile one cannot grow this without bound.
    if (ianaZones.size < 1000) ianaZones.set(tzid, known);
  }
  return known;
};

type Context = { lo: number; hi: number; floatingZone: string; includeFree: boolean };

/**
 * A zone's UTC offset (minutes) at an instant, looked up once per zone and quarter hour (every
 * zone changes its offset at a quarter hour): the Intl lookup behind it dominated the expansion.
 */
const offsets = new Map<string, number>();
function offsetMinutes(zone: string, instant: number): number {
  const key = `${zone}|${Math.floor(instant / 900_000)}`;
  let minutes = offsets.get(key);
  if (minutes === undefined) {
    minutes = tzOffset(zone, new Date(instant));
    if (offsets.size < 200_000) offsets.set(key, minutes);
  }
  return minutes;
}

/** A wall-clock time in `zone` as epoch ms (a time in a DST gap moves forward by the gap). */
function wallClockEpoch(time: ICAL.Time, zone: string): number {
  const wall = Date.UTC(
    time.year,
    time.month - 1,
    time.day,
    time.isDate ? 0 : time.hour,
    time.isDate ? 0 : time.minute,
    time.isDate ? 0 : time.second,
  );
  const guess = wall - offsetMinutes(zone, wall) * 60_000;
  return wall - offsetMinutes(zone, guess) * 60_000;
}

/**
 * An ICAL.Time as epoch ms. UTC and zones defined in the feed (VTIMEZONE) are ical.js's; a TZID
 * without a definition is looked up as an IANA name (Google and Nextcloud use them); floating
 * times and dates are read in the floating zone (the app's: Berlin).
 */
function epochOf(time: ICAL.Time, tzid: string | null, floatingZone: string): number {
  const floating = time.zone === ICAL.Timezone.localTimezone || !time.zone;
  if (!floating) return time.toJSDate().getTime();
  return wallClockEpoch(time, tzid && isIanaZone(tzid) ? tzid : floatingZone);
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
 * Where the expansion of a recurring event may start: simple daily/weekly series without COUNT
 * (stand-ups, lunch breaks, jours fixes) jump close to the window by whole periods, which keeps
 * their wall-clock time and weekdays; every other rule starts at its DTSTART.
 */
function expansionStart(rule: ICAL.Recur, start: ICAL.Time, tzid: string | null, ctx: Context) {
  const parts = Object.keys(rule.parts ?? {});
  if (rule.count || !(rule.freq === "DAILY" || rule.freq === "WEEKLY")) return start;
  if (parts.some((p) => p !== "BYDAY")) return start;
  const interval = Math.max(1, rule.interval || 1);
  // Whole weeks keep the weekday pattern of BYDAY; whole intervals keep the series' rhythm.
  const periodDays = rule.freq === "DAILY" && !parts.length ? interval : 7 * interval;
  const gapDays = Math.floor(
    (ctx.lo - 2 * WEEK_MS - epochOf(start, tzid, ctx.floatingZone)) / DAY_MS,
  );
  const periods = Math.floor(gapDays / periodDays);
  if (periods <= 0) return start;
  const shifted = start.clone();
  // Wall-clock days in the event's zone (ical.js iterates in it as well).
  shifted.adjust(periods * periodDays, 0, 0, 0);
  return shifted;
}

/** VEVENTs in a text, counted up to `cap + 1` without parsing it. */
function countEvents(text: string, cap: number): number {
  const begin = /^BEGIN:VEVENT\r?$/gim;
  let count = 0;
  while (begin.exec(text) && count <= cap) count++;
  return count;
}

type Tally = { cutOff: number; refused: number; steps: number };

/** The RDATE and EXDATE values of an event, counted in its jCal (nothing parsed for it). */
function datesOf(component: ICAL.Component): number {
  let count = 0;
  for (const name of ["rdate", "exdate"])
    for (const property of component.getAllProperties(name))
      count += Math.max(0, (property.jCal as unknown[]).length - 3);
  return count;
}

/** The occurrences of one recurring event within the budget; a spent budget is a cut-off. */
function expandSeries(
  event: ICAL.Event,
  tzid: string | null,
  ctx: Context,
  add: (component: ICAL.Component, tzid: string | null, start: ICAL.Time, end: ICAL.Time) => void,
  budget: number,
  datesPerEvent: number,
  tally: Tally,
) {
  const rules = event.component.getAllProperties("rrule");
  const first = rules[0]?.getFirstValue() as ICAL.Recur | undefined;
  const impossible = rules
    .map((p) => p.getFirstValue() as ICAL.Recur)
    .every((rule) => impossibleRule(rule.freq, rule.parts as never) !== null);
  if (rules.length && impossible && !event.component.hasProperty("rdate")) {
    // Nothing but DTSTART itself ever occurs (RFC 5545: DTSTART is the first instance).
    tally.refused++;
    add(event.component, tzid, event.startDate, event.endDate ?? event.startDate);
    return;
  }
  // RDATE and EXDATE values (ADR 356): ical.js sorts and walks them outside the counted loop, so
  // each one is a step of the budget, paid before the iterator exists; an event with more than
  // `datesPerEvent` (or than its budget) is cut off — only its DTSTART counts.
  const dates = datesOf(event.component);
  if (dates > Math.min(datesPerEvent, budget)) {
    tally.cutOff++;
    tally.steps += Math.min(dates, datesPerEvent, budget);
    add(event.component, tzid, event.startDate, event.endDate ?? event.startDate);
    return;
  }
  stepsLeft = budget - dates;
  try {
    const iterator = event.iterator(
      rules.length === 1 && first ? expansionStart(first, event.startDate, tzid, ctx) : undefined,
    );
    for (let next = iterator.next(); next; next = iterator.next()) {
      const nominal = epochOf(next, tzid, ctx.floatingZone);
      // Long before the window: skipped cheaply (a moved occurrence counts through its own VEVENT).
      if (nominal < ctx.lo - WEEK_MS) continue;
      const details = event.getOccurrenceDetails(next);
      const occurrenceTzid = tzidOf(details.item) ?? tzid;
      const start = epochOf(details.startDate, occurrenceTzid, ctx.floatingZone);
      if (start >= ctx.hi && nominal >= ctx.hi) break;
      add(details.item.component, occurrenceTzid, details.startDate, details.endDate);
    }
  } catch (error) {
    if (error instanceof StepBudgetSpent) tally.cutOff++;
    else {
      // A rule ical.js cannot iterate (malformed parts): only its DTSTART counts.
      tally.refused++;
      add(event.component, tzid, event.startDate, event.endDate ?? event.startDate);
    }
  } finally {
    tally.steps += budget - Math.max(0, stepsLeft);
    stepsLeft = Number.POSITIVE_INFINITY;
  }
}

/**
 * Only in the calendar child (./child.ts) and in tests — untrusted text goes through
 * `expandCalendar` of ./calendar-worker.server.ts. The busy intervals of an iCalendar text that
 * overlap the job's window: recurring events expanded
 * (RRULE, RDATE, EXDATE and moved or cancelled occurrences via RECURRENCE-ID), time zones applied;
 * nothing but start and end is kept. Bounded by the job's limits (event count, iteration budgets;
 * the heap and the time limit are the child's, ./calendar-worker.server.ts).
 */
export function expandInThisProcess(job: CalendarJob): CalendarAnswer {
  const limits: CalendarLimits = limitsOf(job);
  const events = countEvents(job.ics, limits.maxEvents);
  if (events > limits.maxEvents)
    return {
      ok: false,
      reason: "too-many-events",
      message: `Zu viele Termine im Kalender (mehr als ${limits.maxEvents.toLocaleString("de-DE")})`,
    };
  let root: ICAL.Component;
  let invalid = 0;
  try {
    if (job.kind === "objects") ({ root, invalid } = joinObjects(job.ics, job.skipUids ?? []));
    else root = new ICAL.Component(ICAL.parse(job.ics));
  } catch (error) {
    return { ok: false, reason: "invalid", message: messageOf(error) };
  }
  if (root.name !== "vcalendar")
    return { ok: false, reason: "invalid", message: "Keine iCalendar-Datei (VCALENDAR fehlt)." };
  const ctx: Context = {
    lo: Date.parse(job.from),
    hi: Date.parse(job.to),
    floatingZone:
      job.floatingTimeZone && isIanaZone(job.floatingTimeZone)
        ? job.floatingTimeZone
        : DEFAULT_FLOATING_ZONE,
    includeFree: job.includeFree === true,
  };
  try {
    if (job.kind === "freebusy") return { ...nothingExpanded(events), busy: freeBusyOf(root, ctx) };
    if (job.kind === "event")
      return { ...nothingExpanded(events), event: eventTimesOf(root, ctx.floatingZone) };
    const counted = job.kind === "objects" ? { invalid } : {};
    return { ok: true, ...busyOf(root, ctx, limits), events, ...counted };
  } catch (error) {
    return { ok: false, reason: "invalid", message: messageOf(error) };
  }
}

/**
 * The busy intervals of a text in this process (unit tests, the review's reproductions): the
 * answer of `expandInThisProcess` with the default limits; throws on a text that is not iCalendar.
 * Untrusted text goes through the child (./calendar-worker.server.ts).
 */
export function busySpansOf(text: string, from: Date, to: Date): BusySpan[] {
  const answer = expandInThisProcess({ ics: text, from: from.toISOString(), to: to.toISOString() });
  if (!answer.ok) throw new Error(answer.message);
  return answer.busy;
}

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message.slice(0, 120) : "unlesbar";

function busyOf(root: ICAL.Component, ctx: Context, limits: CalendarLimits) {
  const spans: BusySpan[] = [];
  const add = (
    component: ICAL.Component,
    tzid: string | null,
    start: ICAL.Time,
    end: ICAL.Time,
  ) => {
    if (!ctx.includeFree && !blocks(component)) return;
    const s = epochOf(start, tzid, ctx.floatingZone);
    let e = epochOf(end, tzid, ctx.floatingZone);
    if (e <= s) e = s + (start.isDate ? DAY_MS : 0);
    if (e > ctx.lo && s < ctx.hi && e > s) spans.push({ start: s, end: e });
  };
  // Single events are counted as they come (nothing of them is kept: a 2 MB feed of thousands
  // fits the child's heap); recurring ones and moved occurrences wait to be related by UID.
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  const jcal = root.jCal as unknown as [string, unknown[], unknown[][]];
  for (const sub of jcal[2] ?? []) {
    if (sub[0] !== "vevent") continue;
    const event = new ICAL.Event(new ICAL.Component(sub as never, root));
    if (event.isRecurrenceException()) exceptions.push(event);
    else if (event.isRecurring()) masters.set(event.uid ?? `anon-${masters.size}`, event);
    else if (event.startDate)
      add(event.component, tzidOf(event), event.startDate, event.endDate ?? event.startDate);
  }
  for (const [index, exception] of exceptions.entries()) {
    const master = masters.get(exception.uid);
    if (master) master.relateException(exception);
    else if (exception.startDate) masters.set(`${exception.uid}-${index}`, exception);
  }
  const tally: Tally = { cutOff: 0, refused: 0, steps: 0 };
  for (const event of masters.values()) {
    if (!event.startDate) continue;
    const tzid = tzidOf(event);
    if (!event.isRecurring()) {
      add(event.component, tzid, event.startDate, event.endDate ?? event.startDate);
      continue;
    }
    const budget = Math.min(limits.stepsPerEvent, limits.stepsPerCalendar - tally.steps);
    expandSeries(event, tzid, ctx, add, Math.max(0, budget), limits.datesPerEvent, tally);
  }
  // Moved occurrences also count at their own time (one moved into the window from far before it).
  for (const exception of exceptions) {
    if (exception.startDate)
      add(exception.component, tzidOf(exception), exception.startDate, exception.endDate);
  }
  return { busy: mergeSpans(spans), ...tally };
}

const nothingExpanded = (events: number) => ({
  ok: true as const,
  busy: [] as BusySpan[],
  events,
  cutOff: 0,
  refused: 0,
  steps: 0,
});

/**
 * The objects of a CalDAV calendar (each its own VCALENDAR, one after the other) as one calendar:
 * each parsed on its own (a broken one is counted, the rest stand), time zones and events joined;
 * events whose UID is skipped (the portal's own demos) left out.
 */
function joinObjects(text: string, skipUids: readonly string[]) {
  const skip = new Set(skipUids);
  const components: unknown[] = [];
  let invalid = 0;
  for (const chunk of text.split(/(?=^BEGIN:VCALENDAR\r?$)/im)) {
    if (!chunk.trim()) continue;
    try {
      const jcal = ICAL.parse(chunk) as unknown as [string, unknown[], unknown[]];
      if (jcal[0] !== "vcalendar" || !Array.isArray(jcal[2])) throw new Error("no VCALENDAR");
      for (const sub of jcal[2] as [string, [string, unknown, string, unknown][]][]) {
        const uid = sub[0] === "vevent" ? sub[1].find((p) => p[0] === "uid")?.[3] : null;
        if (typeof uid === "string" && skip.has(uid)) continue;
        components.push(sub);
      }
    } catch {
      invalid += 1;
    }
  }
  const root = new ICAL.Component(["vcalendar", [], components] as never);
  return { root, invalid };
}

/** The busy periods of a VFREEBUSY answer (RFC 4791 §7.10): every FREEBUSY but FBTYPE=FREE. */
function freeBusyOf(root: ICAL.Component, ctx: Context): BusySpan[] {
  const spans: BusySpan[] = [];
  for (const fb of root.getAllSubcomponents("vfreebusy")) {
    for (const prop of fb.getAllProperties("freebusy")) {
      const type = String(prop.getParameter("fbtype") ?? "BUSY").toUpperCase();
      if (type === "FREE") continue;
      for (const value of prop.getValues()) {
        const period = value as ICAL.Period;
        if (!period?.start) continue;
        const start = epochOf(period.start, null, ctx.floatingZone);
        const end = epochOf(period.getEnd(), null, ctx.floatingZone);
        if (end > ctx.lo && start < ctx.hi && end > start) spans.push({ start, end });
      }
    }
  }
  return mergeSpans(spans);
}

/** The first master event's own start and end (a demo event as the calendar holds it now). */
function eventTimesOf(root: ICAL.Component, floatingZone: string): EventTimes | null {
  for (const component of root.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component);
    if (event.isRecurrenceException() || !event.startDate) continue;
    const tzid = tzidOf(event);
    const start = epochOf(event.startDate, tzid, floatingZone);
    const end = event.endDate ? epochOf(event.endDate, tzid, floatingZone) : start;
    return { uid: event.uid ?? "", start, end, sequence: Number(event.sequence ?? 0) };
  }
  return null;
}
