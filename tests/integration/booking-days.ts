import { addDays, firstBookableDay, weekday } from "~/lib/booking-calendar";
import type { TestServer } from "./server";

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

const nextDay = (day: string) =>
  new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);

/** The built-in scheduler's free slots of one day (ISO start times), as the booking dialog asks. */
export async function slotsOf(server: TestServer, day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  if (res.status !== 200) throw new Error(`available-slots answered ${res.status}`);
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

/** The first `count` free slots from the first bookable day on. */
export async function freeSlots(server: TestServer, count: number): Promise<string[]> {
  const slots: string[] = [];
  let day = firstBookableDay(1);
  for (let i = 0; i < 30 && slots.length < count; i++, day = nextDay(day))
    slots.push(...(await slotsOf(server, day)));
  if (slots.length < count) throw new Error("not enough bookable slots");
  return slots.slice(0, count);
}

/** The n-th weekday after `day` (YYYY-MM-DD; weekends skipped): different n, different days. */
export function weekdayAfter(day: string, n = 1): string {
  let next = day;
  for (let i = 0; i < n; i++) {
    do {
      next = new Date(new Date(`${next}T12:00:00Z`).getTime() + 86_400_000)
        .toISOString()
        .slice(0, 10);
    } while ([0, 6].includes(new Date(`${next}T12:00:00Z`).getUTCDay()));
  }
  return next;
}
