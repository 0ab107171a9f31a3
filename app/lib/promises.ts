import { TZDate } from "@date-fns/tz";
import { z } from "zod";
import {
  addDays,
  BOOKING_TIME_ZONE,
  berlinDayOf,
  type IsoDay,
  isWeekend,
} from "./booking-calendar";
import { numberWord } from "./number-words";
import { clampedSetting } from "./setting-ranges";

/**
 * The two promises of the landing page (ADR 346): the first contact ("innerhalb eines Werktags")
 * and the trial version ("innerhalb von drei Tagen"). Each request that is not held gets both due
 * times when it is received (or released); this module is the one due-time rule and the one way
 * a due time is said ("fällig heute", "überfällig seit 1 Tag").
 */

/**
 * `pipeline.promises` of the configuration: the first contact within N working days, the trial
 * version within N days (calendar days, or working days with `trialWorkingDays`). Clamped like
 * every number of the configuration API; the settings form refuses a value outside the range.
 */
export const PromiseSettingsSchema = z
  .object({
    contactDays: clampedSetting("pipeline.promises.contactDays"),
    trialDays: clampedSetting("pipeline.promises.trialDays"),
    trialWorkingDays: z.boolean().default(false),
  })
  .prefault({} as never);
export type PromiseSettings = z.infer<typeof PromiseSettingsSchema>;
export const DEFAULT_PROMISES: PromiseSettings = PromiseSettingsSchema.parse(undefined);

/** Whether a day is closed (a holiday or a blocked day); weekends are closed anyway. */
export type ClosedDay = (day: IsoDay) => boolean;

/** A closed-day rule that could close every day must not loop forever: ten years at most. */
const MAX_DAYS_SEARCHED = 3660;

/** The wall-clock fields of an instant in Berlin. */
function berlinClock(instant: Date) {
  const t = new TZDate(instant.getTime(), BOOKING_TIME_ZONE);
  return [t.getHours(), t.getMinutes(), t.getSeconds(), t.getMilliseconds()] as const;
}

/**
 * A Berlin wall-clock time on a day. A time the clock skips (02:00–03:00 on the last Sunday of
 * March) is the same number of minutes after 03:00; a time it passes twice (October) is the first.
 */
function berlinWallTime(day: IsoDay, clock: readonly [number, number, number, number]): Date {
  const [y, m, d] = day.split("-").map(Number);
  const ms = new TZDate(y, m - 1, d, ...clock, BOOKING_TIME_ZONE).getTime();
  // The same wall-clock time an hour earlier: the doubled hour, whose first pass is meant.
  const earlier = new Date(ms - 3_600_000);
  const same = berlinClock(earlier).every((v, i) => v === clock[i]);
  return same && berlinDayOf(earlier) === day ? earlier : new Date(ms);
}

/** Due times are kept to the second: the last millisecond of the second they fall in. */
const toSecondEnd = (ms: number) => Math.floor(ms / 1000) * 1000 + 999;

/**
 * `n` calendar days after `received` at the same Berlin wall-clock time ("3 × 24 h" as the clock
 * on the wall counts them: across a change to or from summer time that is 71 or 73 hours).
 */
export function calendarDaysLater(received: Date, n: number): Date {
  const due = berlinWallTime(addDays(berlinDayOf(received), n), berlinClock(received));
  return new Date(toSecondEnd(due.getTime()));
}

/**
 * `n` working days after `received`: only Monday to Friday count, minus the closed days. Time
 * runs on working days only — a request of Monday 15:00 is due Tuesday 15:00, one of Friday 15:00
 * on Monday 15:00; one received on a closed day (a Saturday, a holiday) starts the clock at the
 * next working day's 00:00, so it is due at the end (23:59:59) of the n-th working day.
 */
export function workingDaysLater(received: Date, n: number, closed: ClosedDay): Date {
  const open = (day: IsoDay) => !isWeekend(day) && !closed(day);
  const start = berlinDayOf(received);
  let day = start;
  for (let count = 0, searched = 0; count < n; ) {
    day = addDays(day, 1);
    if (open(day)) count++;
    // Every day closed (a blocked range of years): the calendar days are the promise then.
    if (++searched > MAX_DAYS_SEARCHED) return calendarDaysLater(received, n);
  }
  const clock = open(start) ? berlinClock(received) : ([23, 59, 59, 999] as const);
  return new Date(toSecondEnd(berlinWallTime(day, clock).getTime()));
}

/** Both due times of a request received (or released from the spam check) at `received`. */
export function promiseDueTimes(
  received: Date,
  settings: PromiseSettings,
  closed: ClosedDay,
): { contactDueAt: Date; trialDueAt: Date } {
  return {
    contactDueAt: workingDaysLater(received, settings.contactDays, closed),
    trialDueAt: settings.trialWorkingDays
      ? workingDaysLater(received, settings.trialDays, closed)
      : calendarDaysLater(received, settings.trialDays),
  };
}

/** Kept = done by the due time, to the second (due times are the last millisecond of a second). */
export const keptInTime = (doneAt: number, dueAt: number) =>
  Math.floor(doneAt / 1000) <= Math.floor(dueAt / 1000);

export const PROMISE_KINDS = ["contact", "trial"] as const;
export type PromiseKind = (typeof PROMISE_KINDS)[number];
export const PROMISE_LABELS: Record<PromiseKind, string> = {
  contact: "Erstkontakt",
  trial: "Testversion",
};

/** One promise of a request as the JSON carries it. */
export type PromiseJson = { dueAt: string | null; doneAt: string | null };

/**
 * - `none`: no promise (held, or received before promises were kept),
 * - `due` / `overdue`: open, before / after the due time,
 * - `kept` / `late`: done by / after the due time,
 * - `dropped`: never done, and the request is closed (a stage of "Done") or archived.
 */
export type PromiseState = "none" | "due" | "overdue" | "kept" | "late" | "dropped";

const dayNumber = (day: IsoDay) =>
  Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8)) / 86_400_000;

/** Calendar days (Berlin) from `a` to `b`. */
export const berlinDaysBetween = (a: Date, b: Date) =>
  dayNumber(berlinDayOf(b)) - dayNumber(berlinDayOf(a));

const days = (n: number) => (n === 1 ? "1 Tag" : `${n} Tagen`);

/** The state of one promise at `now`; `open` = the request is neither closed nor archived. */
export function promiseState(p: PromiseJson, now: Date, open: boolean): PromiseState {
  if (!p.dueAt) return "none";
  const due = Date.parse(p.dueAt);
  if (p.doneAt) return keptInTime(Date.parse(p.doneAt), due) ? "kept" : "late";
  if (!open) return "dropped";
  return now.getTime() > due ? "overdue" : "due";
}

/** "fällig heute", "fällig morgen", "fällig in 2 Tagen", "überfällig seit 1 Tag", "eingehalten" … */
export function promiseText(p: PromiseJson, now: Date, open: boolean): string {
  const state = promiseState(p, now, open);
  switch (state) {
    case "none":
      return "";
    case "kept":
      return "eingehalten";
    case "late":
      return "verspätet erledigt";
    case "dropped":
      return "entfallen";
    case "overdue": {
      const n = berlinDaysBetween(new Date(p.dueAt as string), now);
      return n <= 0 ? "überfällig seit heute" : `überfällig seit ${days(n)}`;
    }
    case "due": {
      const n = berlinDaysBetween(now, new Date(p.dueAt as string));
      return n <= 0 ? "fällig heute" : n === 1 ? "fällig morgen" : `fällig in ${days(n)}`;
    }
  }
}

/** The list's promise filter (`?promise=`): due by the end of today, or past due. */
export const PROMISE_FILTERS = ["due", "overdue"] as const;
export type PromiseFilter = (typeof PROMISE_FILTERS)[number];
export const PROMISE_FILTER_LABELS: Record<PromiseFilter, string> = {
  due: "Fällig (heute)",
  overdue: "Überfällig",
};

/** "innerhalb von drei Tagen", "innerhalb von fünf Werktagen", "innerhalb eines Werktags". */
export function withinDays(n: number, workingDays: boolean): string {
  if (n === 1) return workingDays ? "innerhalb eines Werktags" : "innerhalb eines Tages";
  const word = Number.isInteger(n) && n >= 1 && n <= 10 ? numberWord(n) : n;
  return `innerhalb von ${word} ${workingDays ? "Werktagen" : "Tagen"}`;
}

/** "3 Tagen", "5 Werktagen" (the headline's digits). */
export const daysInDigits = (n: number, workingDays: boolean) =>
  `${n} ${workingDays ? "Werktag" : "Tag"}${n === 1 ? "" : "en"}`;
