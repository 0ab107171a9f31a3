// Recurrence rules that can never produce an occurrence (ADR 320). ical.js searches for the first
// occurrence of such a rule by iterating — a YEARLY one up to the year 20000, a DAILY one without
// end — so they are refused before an iterator is made. Pure; imported by the calendar child.

type Parts = Record<string, (number | string)[] | undefined>;

/** Each BY rule's allowed values (RFC 5545 3.3.10); a value outside never matches. */
const RANGES: Record<string, [number, number, boolean]> = {
  // [min, max, negative values allowed]
  BYSECOND: [0, 60, false],
  BYMINUTE: [0, 59, false],
  BYHOUR: [0, 23, false],
  BYMONTHDAY: [1, 31, true],
  BYYEARDAY: [1, 366, true],
  BYWEEKNO: [1, 53, true],
  BYMONTH: [1, 12, false],
  BYSETPOS: [1, 366, true],
};
/** The longest each month can be (February in a leap year). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The shortest each month can be. */
const MONTH_MIN_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const numbers = (values: (number | string)[] | undefined) =>
  (values ?? []).map((v) => Number(v)).filter((v) => Number.isFinite(v));

function outOfRange(name: string, value: number): boolean {
  const [min, max, negative] = RANGES[name] as [number, number, boolean];
  const size = negative ? Math.abs(value) : value;
  return !Number.isInteger(value) || size < min || size > max || (!negative && value < 0);
}

/** "2MO" → 2, "-1SU" → -1, "MO" → 0; null when not a weekday. */
function ordinalOf(day: string): number | null {
  const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/i.exec(day.trim());
  if (!match) return null;
  return match[1] ? Number(match[1]) : 0;
}

/** Days of a month of `length` days on which the `ordinal`th weekday (counted from either end) can fall. */
function ordinalDays(ordinal: number, length: number): [number, number] {
  const n = Math.abs(ordinal);
  return ordinal > 0 ? [7 * (n - 1) + 1, 7 * n] : [length - 7 * n + 1, length - 7 * (n - 1)];
}

/**
 * Why `freq` with `parts` can never produce an occurrence, or null when it may. Known cases:
 * a value outside its range; BYWEEKNO or BYYEARDAY beside a frequency they do not belong to
 * (ical.js then spins instead of refusing); a month day no listed month has (30 February,
 * 31 April); an ordinal weekday that cannot fall on any listed month day (the first Monday
 * on the 15th). Not every impossible rule is known here: the iteration budget ends the others.
 */
export function impossibleRule(freq: string | undefined, parts: Parts): string | null {
  for (const name of Object.keys(RANGES)) {
    for (const value of numbers(parts[name])) {
      if (outOfRange(name, value)) return `${name}=${value} liegt außerhalb des erlaubten Bereichs`;
    }
  }
  const days = (parts.BYDAY ?? []).map(String);
  for (const day of days) {
    const ordinal = ordinalOf(day);
    if (ordinal === null || Math.abs(ordinal) > 53) return `BYDAY=${day} ist kein Wochentag`;
  }
  if (parts.BYWEEKNO?.length && freq !== "YEARLY") return "BYWEEKNO gibt es nur bei FREQ=YEARLY";
  if (parts.BYYEARDAY?.length && !["YEARLY", "HOURLY", "MINUTELY", "SECONDLY"].includes(freq ?? ""))
    return "BYYEARDAY gibt es nicht bei FREQ=DAILY, WEEKLY oder MONTHLY";
  const months = numbers(parts.BYMONTH).map((m) => m - 1);
  const monthList = months.length ? months : MONTH_DAYS.map((_, i) => i);
  const monthDays = numbers(parts.BYMONTHDAY);
  if (monthDays.length) {
    const fits = (m: number) => monthDays.some((d) => Math.abs(d) <= (MONTH_DAYS[m] as number));
    if (!monthList.some(fits)) return "kein Monat der Regel hat diesen Tag";
  }
  // An ordinal weekday in a month (MONTHLY, or YEARLY with BYMONTH) beside month days.
  const ordinals = days.map((d) => ordinalOf(d) as number).filter((n) => n !== 0);
  const monthly = freq === "MONTHLY" || (freq === "YEARLY" && months.length > 0);
  if (freq === "MONTHLY" && ordinals.some((n) => Math.abs(n) > 5))
    return "ein Monat hat höchstens fünf gleiche Wochentage";
  if (monthly && ordinals.length && monthDays.length && ordinals.length === days.length) {
    const possible = monthList.some((m) => {
      for (
        let length = MONTH_MIN_DAYS[m] as number;
        length <= (MONTH_DAYS[m] as number);
        length++
      ) {
        for (const ordinal of ordinals) {
          if (Math.abs(ordinal) > 5) continue;
          const [first, last] = ordinalDays(ordinal, length);
          for (const d of monthDays) {
            const day = d > 0 ? d : length + 1 + d;
            if (day >= Math.max(1, first) && day <= Math.min(length, last)) return true;
          }
        }
      }
      return false;
    });
    if (!possible) return "der Wochentag fällt nie auf diesen Monatstag";
  }
  return null;
}
