import { addDays, firstBookableDay, weekday } from "~/lib/booking-calendar";

/** The first Monday–Friday (Berlin) on or after `day`; holidays and blocked days are the caller's. */
export function weekdayFrom(day: string): string {
  let d = day;
  while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, 1);
  return d;
}

/**
 * The first weekday (Berlin) at or after the first bookable day (one day's notice): a day with the
 * default week's slots whatever the time of day the tests run (a UTC "today + 2" is only one
 * Berlin day ahead between 23:00 and 24:00 UTC).
 */
export function nextBookableWeekday(): string {
  return weekdayFrom(firstBookableDay(1));
}
