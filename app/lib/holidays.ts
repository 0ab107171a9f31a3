import Holidays from "date-holidays";
import type { BlockedRange } from "./availability";
import { addDays, type IsoDay } from "./booking-calendar";
import type { GermanState } from "./holidays-states";

const cache = new Map<string, IsoDay[]>();

/**
 * The public holidays of a year: the nationwide ones (DE, type public), plus the chosen state's
 * own. 24.12. and 31.12. are no public holidays (they are default blocked days, see `closedDays`).
 */
export function publicHolidays(year: number, state: GermanState | null): IsoDay[] {
  const key = `${year}:${state ?? ""}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const calendar = state ? new Holidays("DE", state) : new Holidays("DE");
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

/** Every day without slots in the years `fromYear`..`toYear`: holidays, 24.12./31.12., blocked ranges. */
export function closedDays(rules: ClosedDayRules, fromYear: number, toYear: number): Set<IsoDay> {
  const closed = new Set<IsoDay>();
  for (let year = fromYear; year <= toYear; year++) {
    if (rules.publicHolidays)
      for (const d of publicHolidays(year, rules.holidayState)) closed.add(d);
    if (rules.blockChristmasEve) closed.add(`${year}-12-24`);
    if (rules.blockNewYearsEve) closed.add(`${year}-12-31`);
  }
  for (const range of rules.blockedDays) {
    const to = range.to && range.to >= range.from ? range.to : range.from;
    // At most ~3 years per range: a typo like 2062 must not loop for ever.
    for (let d = range.from, n = 0; d <= to && n < 1100; d = addDays(d, 1), n++) closed.add(d);
  }
  return closed;
}

/** The closed days from `from` for `days` days, sorted (the calendars grey them out). */
export function closedDaysAhead(rules: ClosedDayRules, from: IsoDay, days: number): IsoDay[] {
  const to = addDays(from, days);
  const year = Number(from.slice(0, 4));
  return [...closedDays(rules, year, Number(to.slice(0, 4)))]
    .filter((d) => d >= from && d <= to)
    .sort();
}
