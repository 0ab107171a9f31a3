import { TZDate } from "@date-fns/tz";

/** Every booking date is a Europe/Berlin calendar date. */
export const BOOKING_TIME_ZONE = "Europe/Berlin";

/** Weekday labels of the grid, Sunday first (spec §2). */
export const WEEKDAY_LABELS = ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"] as const;

export const HINT_WEEKDAYS = "Termine nur Mo-Fr verfügbar";
export const HINT_WEEKEND = "Keine Termine am Wochenende";
export const NO_SLOTS_TEXT = "Keine verfügbaren Zeiten für dieses Datum";
export const PICK_DATE_AND_TIME = "Bitte wähle Datum und Uhrzeit aus";
export const DEFAULT_EVENT_TITLE = "Termin buchen";
/** Duration shown by the dialog when the event type does not say (spec §9). */
export const DEFAULT_DISPLAY_DURATION = 45;
/** Duration used for booking when the event type does not say (spec §9). */
export const DEFAULT_BOOKING_DURATION = 30;

/** The duration a booking is sent with: the event type's, else DEFAULT_BOOKING_DURATION (not 45). */
export function bookingDuration(eventTypeMinutes?: number | null): number {
  return eventTypeMinutes && eventTypeMinutes > 0 ? eventTypeMinutes : DEFAULT_BOOKING_DURATION;
}

/** A calendar date "YYYY-MM-DD" (no time, no zone). */
export type IsoDay = string;
/** A calendar month "YYYY-MM". */
export type IsoMonth = string;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;

export function isIsoDay(value: unknown): value is IsoDay {
  if (typeof value !== "string") return false;
  const m = DAY_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return toIsoDay(d) === value;
}

export function isIsoMonth(value: unknown): value is IsoMonth {
  if (typeof value !== "string") return false;
  const m = MONTH_RE.exec(value);
  // Up to 9998: the grid of a month reaches into the next one, and a year 10000 has no ISO day.
  return (
    !!m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) >= 1970 && Number(m[1]) <= 9998
  );
}

/** UTC-midnight Date of a calendar day, for pure date arithmetic. */
function utcDay(day: IsoDay): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

function toIsoDay(d: Date): IsoDay {
  return d.toISOString().slice(0, 10);
}

export function addDays(day: IsoDay, n: number): IsoDay {
  const d = utcDay(day);
  d.setUTCDate(d.getUTCDate() + n);
  return toIsoDay(d);
}

export function addMonths(month: IsoMonth, n: number): IsoMonth {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}

export function monthOf(day: IsoDay): IsoMonth {
  return day.slice(0, 7);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: IsoDay): number {
  return utcDay(day).getUTCDay();
}

export function isWeekend(day: IsoDay): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/** Today's date in Europe/Berlin ("today" of the dialog is always the Berlin date). */
export function berlinToday(now: Date = new Date()): IsoDay {
  const t = new TZDate(now.getTime(), BOOKING_TIME_ZONE);
  const y = t.getFullYear();
  const m = String(t.getMonth() + 1).padStart(2, "0");
  const d = String(t.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** Today 00:00 (Berlin) + lead days + 1 day; the lead-time hours do not move the calendar. */
export function firstBookableDay(leadDays: number, now: Date = new Date()): IsoDay {
  const days = Number.isFinite(leadDays) ? Math.max(0, Math.floor(leadDays)) : 0;
  return addDays(berlinToday(now), days + 1);
}

export type CalendarCell = {
  day: IsoDay;
  dayOfMonth: number;
  inMonth: boolean;
  weekend: boolean;
  selectable: boolean;
  isToday: boolean;
};

/** The default open weekdays (0 = Sunday): Monday to Friday. */
export const WEEKDAYS_MON_FRI: readonly number[] = [1, 2, 3, 4, 5];

/**
 * Whether a cell can be picked: in the shown month, an open weekday (default Mon–Fri, else the
 * configured week's), not before the first bookable day.
 */
export function isSelectableDay(
  day: IsoDay,
  month: IsoMonth,
  firstBookable: IsoDay,
  openDays: readonly number[] = WEEKDAYS_MON_FRI,
  closed: readonly IsoDay[] = [],
): boolean {
  return (
    monthOf(day) === month &&
    openDays.includes(weekday(day)) &&
    day >= firstBookable &&
    !closed.includes(day)
  );
}

const SHORT_DAYS = ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"];

/**
 * The hint under the calendar: with Mon–Fri the spec's two sentences verbatim, with other days
 * the configured ones (a deliberate deviation, README).
 */
export function bookingDaysHint(openDays: readonly number[] = WEEKDAYS_MON_FRI): string {
  const days = [...new Set(openDays)].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
  if (days.join() === WEEKDAYS_MON_FRI.join()) return `${HINT_WEEKDAYS} · ${HINT_WEEKEND}`;
  if (days.length === 0) return "Derzeit keine Termine verfügbar";
  return `Termine nur ${days.map((d) => SHORT_DAYS[d]).join(", ")} verfügbar`;
}

/** The booking horizon's last day: `horizonDays` after today (0 = no horizon: null). */
export const lastBookableDay = (horizonDays: number, today: IsoDay = berlinToday()) =>
  horizonDays > 0 ? addDays(today, horizonDays) : null;

/** The later of two days. */
export const laterDay = (a: IsoDay, b: IsoDay): IsoDay => (a > b ? a : b);

/**
 * The first day from `firstBookable` on that the calendar offers (an open weekday, not closed,
 * within the horizon), or null when there is none within `limit` days. Whether it has free times
 * is the calendar's to say; it is where a month without a selectable day points (ADR 304), searched
from the later of the first bookable day and the month's first day.
 */
export function nextOpenDay(
  firstBookable: IsoDay,
  openDays: readonly number[] = WEEKDAYS_MON_FRI,
  closed: readonly IsoDay[] = [],
  lastBookable: IsoDay | null = null,
  limit = 400,
): IsoDay | null {
  if (!openDays.length) return null;
  const shut = new Set(closed);
  for (let i = 0, d = firstBookable; i < limit; i++, d = addDays(d, 1)) {
    if (lastBookable !== null && d > lastBookable) return null;
    if (openDays.includes(weekday(d)) && !shut.has(d)) return d;
  }
  return null;
}

/** The hint under the calendar, with the horizon's last day: "… · Buchbar bis 14.12.2026". */
export function bookingHint(openDays: readonly number[], lastBookable: IsoDay | null): string {
  const days = bookingDaysHint(openDays);
  if (!lastBookable) return days;
  const [year, month, day] = lastBookable.split("-");
  return `${days} · Buchbar bis ${day}.${month}.${year}`;
}

/** The 42-cell grid of a month, starting on the Sunday on or before the 1st. */
export function calendarGrid(
  month: IsoMonth,
  firstBookable: IsoDay,
  today: IsoDay = berlinToday(),
  openDays: readonly number[] = WEEKDAYS_MON_FRI,
  /** Holidays and blocked days (not selectable). */
  closed: readonly IsoDay[] = [],
  /** The booking horizon's last day (later days are not selectable); null: no horizon. */
  lastBookable: IsoDay | null = null,
): CalendarCell[] {
  const first = `${month}-01`;
  const start = addDays(first, -weekday(first));
  return Array.from({ length: 42 }, (_, i) => {
    const day = addDays(start, i);
    return {
      day,
      dayOfMonth: Number(day.slice(8, 10)),
      inMonth: monthOf(day) === month,
      weekend: isWeekend(day),
      selectable:
        isSelectableDay(day, month, firstBookable, openDays, closed) &&
        (lastBookable === null || day <= lastBookable),
      isToday: day === today,
    };
  });
}

/** "Dezember 2026". */
export function monthLabel(month: IsoMonth): string {
  return new Intl.DateTimeFormat("de-DE", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(utcDay(`${month}-01`));
}

/** "Donnerstag, 3. Dezember 2026". */
export function dayLabel(day: IsoDay): string {
  return new Intl.DateTimeFormat("de-DE", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(utcDay(day));
}

/** The UTC instants bounding a Berlin calendar day (DST days are 23 or 25 hours long). */
export function dayBoundsUtc(day: IsoDay): { start: Date; end: Date } {
  const [y, m, d] = day.split("-").map(Number);
  const start = new TZDate(y, m - 1, d, 0, 0, 0, 0, BOOKING_TIME_ZONE);
  const next = new TZDate(y, m - 1, d + 1, 0, 0, 0, 0, BOOKING_TIME_ZONE);
  return { start: new Date(start.getTime()), end: new Date(next.getTime() - 1) };
}

/** A Berlin wall-clock time on a calendar day as a UTC instant. */
export function berlinTime(day: IsoDay, hours: number, minutes = 0): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(new TZDate(y, m - 1, d, hours, minutes, 0, 0, BOOKING_TIME_ZONE).getTime());
}

/** The Berlin calendar day of an instant. */
export function berlinDayOf(instant: Date | string): IsoDay {
  return berlinToday(new Date(instant));
}
