import { randomBytes } from "node:crypto";
import { and, eq, gte, lt, ne } from "drizzle-orm";
import {
  type AvailabilityInput,
  type BookedInterval,
  freeSlots,
  gridStarts,
} from "~/lib/availability";
import { addDays, berlinDayOf, dayBoundsUtc, type IsoDay } from "~/lib/booking-calendar";
import { formatTime } from "~/lib/format";
import { availabilityRules } from "~/lib/scheduling-settings";
import { closedDays } from "~/server/appointments/holidays.server";
import { appointments } from "~db/schema";
import { getConfiguration } from "../../configuration/configuration.server";
import { db, transaction } from "../../platform/db.server";
import { busyBetween } from "./busy.server";
import {
  type EventType,
  SchedulingError,
  type SchedulingProvider,
  SLOT_TAKEN,
  type Slot,
} from "./types";

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

export const SLOT_NOT_OFFERED =
  "Dieser Zeitpunkt ist nicht buchbar. Bitte wähle eine angebotene Uhrzeit.";

/** Active built-in bookings from the day before to the day after (buffers may cross midnight). */
function activeBookings(day: IsoDay): BookedInterval[] {
  const from = dayBoundsUtc(addDays(day, -1)).start;
  const to = dayBoundsUtc(addDays(day, 1)).end;
  return db()
    .select({
      id: appointments.id,
      start: appointments.startTime,
      minutes: appointments.durationMinutes,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.provider, "builtin"),
        ne(appointments.status, "CANCELLED"),
        gte(appointments.startTime, from),
        lt(appointments.startTime, to),
      ),
    )
    .all()
    .map((r) => ({
      id: r.id,
      start: r.start,
      end: new Date(r.start.getTime() + r.minutes * 60_000),
    }));
}

/**
 * The availability function's input for one day, from the configuration and the database;
 * `excludeId` names a booking being moved (it does not block its own surroundings).
 */
export function availabilityInput(
  day: IsoDay,
  durationMinutes: number,
  options: { excludeId?: number; now?: Date } = {},
): AvailabilityInput {
  const config = getConfiguration();
  const year = Number(day.slice(0, 4));
  const from = dayBoundsUtc(addDays(day, -1)).start;
  const to = dayBoundsUtc(addDays(day, 1)).end;
  return {
    day,
    rules: availabilityRules(config.scheduling, config.teamCalendar.busyFeeds.length > 0),
    durationMinutes,
    leadTime: config.bookingLeadTime,
    now: options.now ?? new Date(),
    closedDays: closedDays(config.scheduling, year, year),
    bookings: activeBookings(day),
    exclude: options.excludeId,
    busy: busyBetween(from, to),
  };
}

/** Every start the configured week offers on a day (hours, step, length), before other rules. */
export function builtinSlotStarts(day: IsoDay, minutes: number): Date[] {
  return gridStarts(day, availabilityRules(getConfiguration().scheduling), minutes);
}

/**
 * Refuses a start that is not a free slot: not offered at all (off the week's grid, a closed day,
 * before the notice, beyond the horizon, in the team calendar's busy times): 400; offered but taken
 * by another booking (overlap with buffers, daily maximum): 409.
 */
export function assertBuiltinSlot(start: Date, minutes: number, excludeId?: number) {
  const input = availabilityInput(berlinDayOf(start), minutes, { excludeId });
  const at = (slots: Date[]) => slots.some((s) => s.getTime() === start.getTime());
  if (at(freeSlots(input))) return;
  if (at(freeSlots({ ...input, bookings: [] }))) {
    throw new SchedulingError(SLOT_TAKEN, "slot_taken", 409);
  }
  throw new SchedulingError(SLOT_NOT_OFFERED, "invalid", 400);
}

/**
 * Checks the slot and writes the booking (or the move) in ONE immediate transaction: no other
 * booking can slip in between the check and the write, so no two active bookings overlap
 * (buffers included) and the daily maximum holds under parallel requests.
 */
export function writeIfFree<T>(
  start: Date,
  minutes: number,
  excludeId: number | undefined,
  write: () => T,
): T {
  return transaction(() => {
    assertBuiltinSlot(start, minutes, excludeId);
    return write();
  });
}

/** Where a built-in demo takes place until a video link is set (then the link is shown). */
export const BUILTIN_LOCATION = "Videocall";

/** The built-in scheduler (embedded default): bookings live in the appointments table. */
export const builtinProvider: SchedulingProvider = {
  name: "builtin",
  async listEventTypes() {
    return [BUILTIN_EVENT_TYPE];
  },
  async getSlots(day, eventType, _minNoticeHours, excludeId) {
    const input = availabilityInput(day, eventType.lengthInMinutes, { excludeId });
    return freeSlots(input).map<Slot>((start) => ({
      time: start.toISOString(),
      formatted: formatTime(start),
      available: true,
    }));
  },
  async book(input) {
    // The row itself is written by the appointments service, checked again in its transaction.
    const start = new Date(input.start);
    assertBuiltinSlot(start, input.eventType.lengthInMinutes);
    const end = new Date(start.getTime() + input.eventType.lengthInMinutes * 60_000);
    return {
      uid: `builtin_${randomBytes(12).toString("hex")}`,
      start: start.toISOString(),
      end: end.toISOString(),
      status: "ACCEPTED",
      // No promise of a mail (there may be no SMTP) or a link (there may be none yet): the card,
      // the manage page and the invite show the link once one is set.
      location: BUILTIN_LOCATION,
      url: null,
      raw: { provider: "builtin" },
    };
  },
  async getBooking() {
    return null;
  },
  async cancel() {},
};
