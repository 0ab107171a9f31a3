import type { Interval } from "~/lib/availability";

/**
 * Busy times of the team's calendar between two instants (issue 28's ICS feeds). The
 * availability function takes them as input; the feed import plugs in here (merge point:
 * return its `busyIntervals(from, to)`). Without feeds nothing is busy.
 */
export function busyBetween(_from: Date, _to: Date): Interval[] {
  return [];
}
