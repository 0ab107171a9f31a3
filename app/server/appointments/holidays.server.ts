import { createRequire } from "node:module";
import type DateHolidays from "date-holidays";
import type { BlockedRange } from "~/lib/availability";
import { addDays, type IsoDay } from "~/lib/booking-calendar";
import type { GermanState } from "~/lib/holidays-states";

const cache = new Map<string, IsoDay[]>();

/**
 * date-holidays holds the holidays of every country (~8.6 MB of heap once loaded): it is loaded on
 * the first holiday lookup (a booking calendar), not when the server starts (ADR 301). Its CommonJS
 * build, so the lookups stay synchronous.
 */
let holidaysClass: typeof DateHolidays | undefined;
const Holidays = () => {
  holidaysClass ??= createRequire(import.meta.url)("date-holidays") as typeof DateHolidays;
  return holidaysClass;
};

/**
 * The public holidays of a year: the nationwide ones (DE, type public), plus the chosen state's
 * own. 24.12. and 31.12. are no public holidays (they are default blocked days, see `closedDays`).
 */
export function publicHolidays(year: number, state: GermanState | null): IsoDay[] {
  const key = `${year}:${state ?? ""}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const Calendar = Holidays();
  const calendar = state ? new Calendar("DE", state) : new Calendar("DE");
  const days = calendar
    .getHolidays(year)
    .filter((h) => h.type === "public")
    .map((h) => h.date.slice(0, 10));
  cache.set(key, days);
  return days;
}

export type ClosedDayRules = {
  publicHolidays: boolean;
  holidayState: GermanState | null;
  blockChristmasEve: boolean;
  blockNewYearsEve: boolean;
  blockedDays: readonly BlockedRange[];
};

/** Whether a day has no slots (a Set of days fits, too). */
export type ClosedDays = { has(day: IsoDay): boolean };

/**
 * Every day without slots in the years `fromYear`..`toYear`: holidays, 24.12./31.12., and the
 * blocked ranges — those checked directly (from <= day <= to), never expanded day by day, so a
 * range of any length closes all of its days at no cost.
 */
export function closedDays(rules: ClosedDayRules, fromYear: number, toYear: number): ClosedDays {
  const closed = new Set<IsoDay>();
  for (let year = fromYear; year <= toYear; year++) {
    if (rules.publicHolidays)
      for (const d of publicHolidays(year, rules.holidayState)) closed.add(d);
    if (rules.blockChristmasEve) closed.add(`${year}-12-24`);
    if (rules.blockNewYearsEve) closed.add(`${year}-12-31`);
  }
  const ranges = rules.blockedDays.map((range) => ({
    from: range.from,
    to: range.to && range.to >= range.from ? range.to : range.from,
  }));
  return {
    has: (day) => closed.has(day) || ranges.some((r) => day >= r.from && day <= r.to),
  };
}

/** The closed days from `from` for `days` days, sorted (the calendars grey them out). */
export function closedDaysAhead(rules: ClosedDayRules, from: IsoDay, days: number): IsoDay[] {
  const to = addDays(from, days);
  const closed = closedDays(rules, Number(from.slice(0, 4)), Number(to.slice(0, 4)));
  const list: IsoDay[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (closed.has(d)) list.push(d);
  return list;
}
