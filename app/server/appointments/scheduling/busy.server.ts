import type { Interval } from "~/lib/availability";
import { busyIntervals } from "../../team-calendar/busy-feeds.server";

/**
 * Busy times of the team's calendar between two instants (ADR 266's ICS feeds, cached by the
 * feed import): the availability function takes them as input. Without feeds nothing is busy.
 */
export function busyBetween(from: Date, to: Date): Interval[] {
  return busyIntervals(from, to);
}
