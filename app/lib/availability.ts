import {
  addDays,
  berlinDayOf,
  berlinTime,
  berlinToday,
  type IsoDay,
  weekday,
} from "./booking-calendar";

/** Weekday keys of the weekly hours, Sunday first like `weekday()` (0 = Sunday). */
export const WEEKDAY_KEYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];

/** One working interval of a weekday, Berlin wall-clock "HH:MM" ("to" exclusive). */
export type HoursInterval = { from: string; to: string };
export type WeeklyHours = Record<WeekdayKey, HoursInterval[]>;
export type BlockedRange = { from: IsoDay; to: IsoDay; note?: string };
export type Interval = { start: Date; end: Date };
/**
 * An active booking: its interval and, from the database, its id (to leave a moved one out) and
 * its host (the admin who takes it; null or absent: the whole team, which blocks every host).
 */
export type BookedInterval = Interval & { id?: number; hostId?: number | null };

/** An admin who takes demos, with the busy times of their own calendars (ADR 338). */
export type Host = { id: number; busy: readonly Interval[] };

/** The rules of the built-in scheduler's week (configuration `scheduling`). */
export type AvailabilityRules = {
  weeklyHours: WeeklyHours;
  /** Minutes between two slot starts; 0: the slot length (today's grid). */
  slotStepMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** Bookings per Berlin day at most; 0: no limit. */
  maxPerDay: number;
  /** Bookable up to today + this many days; 0: no limit. */
  horizonDays: number;
};

export type AvailabilityInput = {
  day: IsoDay;
  rules: AvailabilityRules;
  /** Slot length in minutes (the event type's duration). */
  durationMinutes: number;
  /** Minimum notice: the lead time (days move the calendar, hours the first start). */
  leadTime: { days: number; hours: number };
  now: Date;
  /** Days without slots: public holidays and blocked days (already expanded). */
  closedDays: { has(day: IsoDay): boolean };
  /** Active bookings, each with its own length. */
  bookings: readonly BookedInterval[];
  /**
   * The booking being moved (its id): it leaves its old time, so neither it nor its buffers block
   * the slots around it, and it does not count toward its day's maximum.
   */
  exclude?: number;
  /** Busy times of the team's calendar (ICS feeds, the shared CalDAV calendars). */
  busy: readonly Interval[];
  /**
   * The admins who take demos (ADR 338): when given, a slot is free when at least one of them is
   * free — overlap, buffers and the daily maximum count per host (bookings of no host count for
   * all), and each host's own busy times add to `busy`. Absent or empty: one shared calendar.
   */
  hosts?: readonly Host[];
};

const MINUTE = 60_000;

/** "HH:MM" -> minutes after midnight (24:00 allowed as the end of a day); NaN when malformed. */
export function clockMinutes(value: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  if (!m) return Number.NaN;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && minutes <= 24 * 60 ? minutes : Number.NaN;
}

/** The default week: Monday to Friday 09:00–17:00, as before the settings existed. */
export const DEFAULT_WEEKLY_HOURS: WeeklyHours = {
  sun: [],
  mon: [{ from: "09:00", to: "17:00" }],
  tue: [{ from: "09:00", to: "17:00" }],
  wed: [{ from: "09:00", to: "17:00" }],
  thu: [{ from: "09:00", to: "17:00" }],
  fri: [{ from: "09:00", to: "17:00" }],
  sat: [],
};

/** The weekdays (0 = Sunday) that have at least one working interval. */
export function openWeekdays(hours: WeeklyHours): number[] {
  return WEEKDAY_KEYS.flatMap((key, index) => (hours[key]?.length ? [index] : []));
}

/** Every slot start the week offers on a day (hours, step, length), nothing else checked. */
export function gridStarts(day: IsoDay, rules: AvailabilityRules, durationMinutes: number): Date[] {
  const step = rules.slotStepMinutes > 0 ? rules.slotStepMinutes : durationMinutes;
  const starts = new Map<number, Date>();
  for (const interval of rules.weeklyHours[WEEKDAY_KEYS[weekday(day)]] ?? []) {
    const from = clockMinutes(interval.from);
    const to = clockMinutes(interval.to);
    if (!(from < to) || step <= 0 || durationMinutes <= 0) continue;
    // The interval's end as an instant: on the spring DST day a start in the missing hour maps
    // to the next valid instant, and a slot ending after the hours' real end is dropped.
    const end = berlinTime(day, Math.floor(to / 60), to % 60).getTime();
    for (let m = from; m + durationMinutes <= to; m += step) {
      // Wall-clock arithmetic: on DST days a missing hour's start maps to the next valid instant.
      const start = berlinTime(day, Math.floor(m / 60), m % 60);
      if (start.getTime() + durationMinutes * MINUTE > end) continue;
      starts.set(start.getTime(), start);
    }
  }
  return [...starts.values()].sort((a, b) => a.getTime() - b.getTime());
}

const overlaps = (a: Interval, b: Interval) =>
  a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();

/** Whether a day may offer slots at all: lead days, horizon, holidays and blocked days. */
export function isOpenDay(
  input: Pick<AvailabilityInput, "day" | "rules" | "leadTime" | "now" | "closedDays">,
): boolean {
  const today = berlinToday(input.now);
  const lead = Math.max(0, Math.floor(input.leadTime.days));
  if (input.day < addDays(today, lead + 1)) return false;
  if (input.rules.horizonDays > 0 && input.day > addDays(today, input.rules.horizonDays))
    return false;
  return !input.closedDays.has(input.day);
}

/**
 * The free slot starts of one Berlin day — the one availability rule every path uses (slots API,
 * booking, dialog, no-JS page, reschedule): the weekly hours on the step grid, minimum notice and
 * horizon, holidays and blocked days, the daily maximum, and no overlap with a booking or a busy
 * time, buffers included (a booking's after-buffer and the next one's before-buffer lie between them).
 * A booking being moved (`exclude`) is left out of the bookings.
 */
export function freeSlots(input: AvailabilityInput): Date[] {
  if (!input.hosts?.length) return freeSlotsOfOne(input);
  const starts = new Map<number, Date>();
  for (const host of input.hosts)
    for (const start of freeSlotsOfOne(forHost(input, host))) starts.set(start.getTime(), start);
  return [...starts.values()].sort((a, b) => a.getTime() - b.getTime());
}

/** One host's view of the input: their bookings (and the team's), their busy times too. */
function forHost(input: AvailabilityInput, host: Host): AvailabilityInput {
  return {
    ...input,
    hosts: undefined,
    bookings: input.bookings.filter((b) => b.hostId == null || b.hostId === host.id),
    busy: [...input.busy, ...host.busy],
  };
}

/**
 * The hosts free at `start` (ADR 338), fewest bookings that day first, then by id — the one the
 * booking goes to is the first (or `prefer`, a moved booking's own host, when it is free).
 */
export function freeHostsAt(
  start: Date,
  input: AvailabilityInput,
  prefer?: number | null,
): number[] {
  const day = berlinDayOf(start);
  const free = (input.hosts ?? []).filter((host) =>
    freeSlotsOfOne({ ...forHost(input, host), day }).some((s) => s.getTime() === start.getTime()),
  );
  const load = (id: number) =>
    input.bookings.filter(
      (b) => b.hostId === id && b.id !== input.exclude && berlinDayOf(b.start) === day,
    ).length;
  const ordered = free.map((h) => h.id).sort((a, b) => load(a) - load(b) || a - b);
  return prefer != null && ordered.includes(prefer)
    ? [prefer, ...ordered.filter((id) => id !== prefer)]
    : ordered;
}

function freeSlotsOfOne(input: AvailabilityInput): Date[] {
  if (!isOpenDay(input)) return [];
  const { rules, durationMinutes } = input;
  const others = input.bookings.filter(
    (b) => input.exclude === undefined || b.id !== input.exclude,
  );
  const ofDay = others.filter((b) => berlinDayOf(b.start) === input.day);
  if (rules.maxPerDay > 0 && ofDay.length >= rules.maxPerDay) return [];
  const before = rules.bufferBeforeMinutes * MINUTE;
  const after = rules.bufferAfterMinutes * MINUTE;
  const earliest = input.now.getTime() + input.leadTime.hours * 3600_000;
  const booked = others.map((b) => ({
    start: new Date(b.start.getTime() - before),
    end: new Date(b.end.getTime() + after),
  }));
  return gridStarts(input.day, rules, durationMinutes).filter((start) => {
    if (start.getTime() <= earliest) return false;
    const slot = { start, end: new Date(start.getTime() + durationMinutes * MINUTE) };
    const padded = {
      start: new Date(slot.start.getTime() - before),
      end: new Date(slot.end.getTime() + after),
    };
    return !booked.some((b) => overlaps(padded, b)) && !input.busy.some((b) => overlaps(padded, b));
  });
}

/** Whether `start` is one of the day's free slots (booking and moving check with this). */
export function isFreeSlot(start: Date, input: Omit<AvailabilityInput, "day">): boolean {
  const day = berlinDayOf(start);
  return freeSlots({ ...input, day }).some((s) => s.getTime() === start.getTime());
}
