import { randomBytes } from "node:crypto";
import { and, eq, gte, lt, ne } from "drizzle-orm";
import {
  berlinDayOf,
  berlinTime,
  dayBoundsUtc,
  type IsoDay,
  isWeekend,
} from "~/lib/booking-calendar";
import { formatTime } from "~/lib/format";
import { appointments } from "~db/schema";
import { db } from "../../db.server";
import { busyIntervals } from "../../team-calendar/busy-feeds.server";
import { type EventType, SchedulingError, type SchedulingProvider, type Slot } from "./types";

export const BUILTIN_EVENT_TYPE: EventType = {
  key: "demo",
  id: null,
  slug: "demo",
  title: "Demo-Termin",
  lengthInMinutes: 30,
  description:
    "<p>In einem kurzen Video-Termin zeigen wir dir deine <strong>Testversion</strong> und besprechen die nächsten Schritte.</p>",
  hidden: false,
};

const OPEN_HOUR = 9;
const CLOSE_HOUR = 17;

/** All slot starts of a weekday: 09:00 to 17:00 Europe/Berlin at the event duration. */
export function builtinSlotStarts(day: IsoDay, minutes: number): Date[] {
  if (isWeekend(day)) return [];
  const starts: Date[] = [];
  for (let m = OPEN_HOUR * 60; m + minutes <= CLOSE_HOUR * 60; m += minutes) {
    starts.push(berlinTime(day, Math.floor(m / 60), m % 60));
  }
  return starts;
}

/**
 * Issue 28 seam: whether a slot overlaps the team calendar's busy times. The availability function
 * (i28a) takes `busyIntervals` as its `busy` input; until then these two calls apply it here.
 */
function overlapsBusy(
  start: Date,
  minutes: number,
  busy = busyIntervals(start, endOf(start, minutes)),
) {
  const end = endOf(start, minutes).getTime();
  return busy.some((b) => b.start.getTime() < end && b.end.getTime() > start.getTime());
}
const endOf = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000);

/** Only the offered slot starts (weekday, opening hours, the duration's grid) in the future. */
export function assertBuiltinSlot(start: Date, minutes: number) {
  const day = berlinDayOf(start);
  const valid = builtinSlotStarts(day, minutes).some((s) => s.getTime() === start.getTime());
  if (!valid || start.getTime() <= Date.now() || overlapsBusy(start, minutes)) {
    throw new SchedulingError(
      "Dieser Zeitpunkt ist nicht buchbar. Bitte wähle eine angebotene Uhrzeit.",
      "invalid",
      400,
    );
  }
}

function bookedStarts(day: IsoDay): Set<number> {
  const { start, end } = dayBoundsUtc(day);
  return new Set(
    db()
      .select({ start: appointments.startTime })
      .from(appointments)
      .where(
        and(
          eq(appointments.provider, "builtin"),
          ne(appointments.status, "CANCELLED"),
          gte(appointments.startTime, start),
          lt(appointments.startTime, end),
        ),
      )
      .all()
      .map((r) => r.start.getTime()),
  );
}

/** The built-in scheduler (embedded default): bookings live in the appointments table. */
export const builtinProvider: SchedulingProvider = {
  name: "builtin",
  async listEventTypes() {
    return [BUILTIN_EVENT_TYPE];
  },
  async getSlots(day, eventType, minNoticeHours) {
    const earliest = Date.now() + minNoticeHours * 3600_000;
    const taken = bookedStarts(day);
    const { start: dayStart, end: dayEnd } = dayBoundsUtc(day);
    const busy = busyIntervals(dayStart, dayEnd);
    const minutes = eventType.lengthInMinutes;
    return builtinSlotStarts(day, minutes)
      .filter(
        (start) =>
          start.getTime() > earliest &&
          !taken.has(start.getTime()) &&
          !overlapsBusy(start, minutes, busy),
      )
      .map<Slot>((start) => ({
        time: start.toISOString(),
        formatted: formatTime(start),
        available: true,
      }));
  },
  async book(input) {
    // The row itself is written by the appointments service; its unique index is the lock.
    const start = new Date(input.start);
    assertBuiltinSlot(start, input.eventType.lengthInMinutes);
    const end = new Date(start.getTime() + input.eventType.lengthInMinutes * 60_000);
    return {
      uid: `builtin_${randomBytes(12).toString("hex")}`,
      start: start.toISOString(),
      end: end.toISOString(),
      status: "ACCEPTED",
      location: "Videocall (Link folgt per E-Mail)",
      url: null,
      raw: { provider: "builtin" },
    };
  },
  async getBooking() {
    return null;
  },
  async cancel() {},
};
