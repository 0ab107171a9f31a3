// The calendar worker's interface (ADR 320): plain data in, plain JSON out, so the same answer
// comes from the child process and from a call in process (tests). Imported by the child, which
// Node runs as it is: relative imports with their extension, no path aliases.

/** One busy interval in epoch milliseconds: all that is kept of an event's occurrence. */
export type BusySpan = { start: number; end: number };

/** What bounds one job. Each has a default (CALENDAR_LIMITS); a job may only lower them. */
export type CalendarLimits = {
  /** VEVENTs in one text at most (counted before parsing). */
  maxEvents: number;
  /** Iterations of one recurring event's rule (ical.js's inner loop, not its results). */
  stepsPerEvent: number;
  /** Iterations of all rules of one text together; every RDATE and EXDATE value counts as one. */
  stepsPerCalendar: number;
  /** RDATE and EXDATE values of one event at most; more cut the event off (ADR 356). */
  datesPerEvent: number;
  /** The child's V8 heap (old space), MB. */
  heapMb: number;
  /** Wall-clock time until the child is killed, start-up included, ms. */
  timeLimitMs: number;
};

/**
 * Sized by measurement (ADR 320): a 1.9 MB feed of 8,000 events (800 of them weekly series,
 * 174,000 iterations) needs 48 MB of heap, 32 MB end in "out of memory"; an iteration costs
 * ~35–90 µs of CPU on an idle core, so the feed's budget is a few seconds and the time limit only
 * the backstop for what the budgets do not bound (parsing, a starved child).
 */
export const CALENDAR_LIMITS: CalendarLimits = {
  maxEvents: 10_000,
  stepsPerEvent: 20_000,
  stepsPerCalendar: 100_000,
  datesPerEvent: 1_000,
  heapMb: 48,
  timeLimitMs: 60_000,
};

/** One job: an iCalendar text and the window [from, to) whose busy times are wanted. */
export type CalendarJob = {
  ics: string;
  /** ISO 8601 instants. */
  from: string;
  to: string;
  /** IANA zone of floating times and dates (no TZID, or an unknown one); default Europe/Berlin. */
  floatingTimeZone?: string;
  /** Also free (TRANSP:TRANSPARENT) and cancelled events, e.g. for a CalDAV time-range query. */
  includeFree?: boolean;
  limits?: Partial<CalendarLimits>;
  /**
   * What the text is (ADRs 320, 335): "feed" (one VCALENDAR; the default), "objects" (the objects of
   * a CalDAV calendar, each its own VCALENDAR, one after the other: a broken one costs only itself,
   * counted in `invalid`), "freebusy" (a VFREEBUSY answer: its busy periods), "event" (one object:
   * its master event's own times, nothing expanded).
   */
  kind?: "feed" | "objects" | "freebusy" | "event";
  /** With "objects": events with these UIDs block nothing (the portal's own demos). */
  skipUids?: string[];
};

/** A CalDAV object's master event as the calendar holds it now (ADR 336). */
export type EventTimes = { uid: string; start: number; end: number; sequence: number };

export type CalendarFailure =
  | "invalid"
  | "too-many-events"
  | "time-limit"
  | "memory-limit"
  | "crashed"
  | "busy"
  | "deadline";

export type CalendarAnswer =
  | {
      ok: true;
      /** Merged and sorted busy intervals overlapping the window. */
      busy: BusySpan[];
      /** VEVENTs in the text. */
      events: number;
      /** Recurring events whose iteration budget ran out: they block only up to there. */
      cutOff: number;
      /** Recurring events whose rule can never match or is malformed: only their DTSTART counts. */
      refused: number;
      /** Rule iterations spent. */
      steps: number;
      /** With kind "objects": objects that are no iCalendar. */
      invalid?: number;
      /** With kind "event": the master event's times (null: none with a start). */
      event?: EventTimes | null;
    }
  | { ok: false; reason: CalendarFailure; message: string };

/** The limits of a job: the defaults, lowered where the job asks for less. */
export function limitsOf(job: Pick<CalendarJob, "limits">): CalendarLimits {
  const limits = { ...CALENDAR_LIMITS };
  for (const key of Object.keys(limits) as (keyof CalendarLimits)[]) {
    const asked = job.limits?.[key];
    if (typeof asked === "number" && Number.isFinite(asked) && asked >= 0)
      limits[key] = Math.min(limits[key], asked);
  }
  return limits;
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
