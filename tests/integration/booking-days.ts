import { firstBookableDay } from "~/lib/booking-calendar";

/**
 * The first weekday (Berlin) at or after the first bookable day (one day's notice): a day with the
 * default week's slots whatever the time of day the tests run (a UTC "today + 2" is only one
 * Berlin day ahead between 23:00 and 24:00 UTC).
 */
export function nextBookableWeekday(): string {
  let day = firstBookableDay(1);
  while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) {
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
  }
  return day;
}

/** The next weekday after `day` (YYYY-MM-DD): a second day with the default week's slots. */
export function weekdayAfter(day: string): string {
  let next = day;
  do {
    next = new Date(new Date(`${next}T12:00:00Z`).getTime() + 86_400_000)
      .toISOString()
      .slice(0, 10);
  } while ([0, 6].includes(new Date(`${next}T12:00:00Z`).getUTCDay()));
  return next;
}
