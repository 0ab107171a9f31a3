import { randomBytes } from "node:crypto";
import { and, eq, gte, lt, notInArray } from "drizzle-orm";
import { HELD_STATUS } from "~/lib/appointment-status";
import {
  type AvailabilityInput,
  type BookedInterval,
  freeHostsAt,
  freeSlots,
  gridStarts,
  isOpenDay,
} from "~/lib/availability";
import { addDays, berlinDayOf, dayBoundsUtc, type IsoDay } from "~/lib/booking-calendar";
import { formatTime } from "~/lib/format";
import { availabilityRules } from "~/lib/scheduling-settings";
import { closedDays } from "~/server/appointments/holidays.server";
import { appointments } from "~db/schema";
import { demoHostPlan } from "../../caldav/hosts.server";
import { refreshLiveBusy } from "../../caldav/live-busy.server";
import { getConfiguration } from "../../configuration/configuration.server";
import { db, transaction } from "../../platform/db.server";
import { attemptNow, type Scheduled } from "./attempt.server";
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

/**
 * Active built-in bookings from the day before to the day after (buffers may cross midnight); a
 * HELD one holds no slot (ADR 355).
 */
function activeBookings(day: IsoDay): BookedInterval[] {
  const from = dayBoundsUtc(addDays(day, -1)).start;
  const to = dayBoundsUtc(addDays(day, 1)).end;
  return db()
    .select({
      id: appointments.id,
      start: appointments.startTime,
      minutes: appointments.durationMinutes,
      hostId: appointments.hostAdminId,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.provider, "builtin"),
        notInArray(appointments.status, ["CANCELLED", HELD_STATUS]),
        gte(appointments.startTime, from),
        lt(appointments.startTime, to),
      ),
    )
    .all()
    .map((r) => ({
      id: r.id,
      start: r.start,
      end: new Date(r.start.getTime() + r.minutes * 60_000),
      hostId: r.hostId,
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
  // The team's CalDAV calendars (ADRs 337, 338): shared busy times, or one host per admin.
  const plan = demoHostPlan(day);
  return {
    day,
    rules: availabilityRules(config.scheduling, config.teamCalendar.busyFeeds.length > 0),
    durationMinutes,
    leadTime: config.bookingLeadTime,
    now: options.now ?? new Date(),
    closedDays: closedDays(config.scheduling, year, year),
    bookings: activeBookings(day),
    exclude: options.excludeId,
    busy: [...busyBetween(from, to), ...plan.teamBusy],
    hosts: plan.hosts,
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
export function assertBuiltinSlot(
  start: Date,
  minutes: number,
  excludeId?: number,
): AvailabilityInput {
  const input = availabilityInput(berlinDayOf(start), minutes, { excludeId });
  const at = (slots: Date[]) => slots.some((s) => s.getTime() === start.getTime());
  if (at(freeSlots(input))) return input;
  // Offered without the other bookings or the CalDAV calendars' busy times: it was just taken (a
  // meeting entered a moment ago counts like a booking, ADR 337). The ICS feeds' busy times are
  // known for minutes: a start in them is not offered at all (400).
  const day = berlinDayOf(start);
  const open = {
    ...input,
    bookings: [],
    busy: busyBetween(dayBoundsUtc(addDays(day, -1)).start, dayBoundsUtc(addDays(day, 1)).end),
    hosts: input.hosts?.map((h) => ({ ...h, busy: [] })),
  };
  if (at(freeSlots(open))) {
    throw new SchedulingError(SLOT_TAKEN, "slot_taken", 409);
  }
  throw new SchedulingError(SLOT_NOT_OFFERED, "invalid", 400);
}

/** Whether a write hit a unique index (the built-in slot index, a booking's uid). */
export function isUniqueViolation(error: unknown) {
  return (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * Checks the slot and writes the booking (or the move) in ONE immediate transaction: no other
 * booking can slip in between the check and the write, so no two active bookings overlap
 * (buffers included) and the daily maximum holds under parallel requests — per host when the
 * admins who take demos are the hosts (ADR 338): `write` gets the host the slot goes to (a moved
 * booking keeps its own when it is free there), null for the team. A refused slot (the check's
 * throw rolls the transaction back, the unique start index is the last guard) comes back as a
 * failure (ADR 310).
 */
export function writeIfFree<T>(
  start: Date,
  minutes: number,
  excludeId: number | undefined,
  write: (hostId: number | null) => T,
  preferHost?: number | null,
): Scheduled<T> {
  return attemptNow(() => {
    try {
      return transaction(() => {
        const input = assertBuiltinSlot(start, minutes, excludeId);
        if (!input.hosts?.length) return write(null);
        return write(freeHostsAt(start, input, preferHost)[0] ?? null);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new SchedulingError(SLOT_TAKEN, "slot_taken", 409);
      throw error;
    }
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
    // A day without slots anyway (notice, horizon, holiday) asks no calendar.
    if (!isOpenDay(availabilityInput(day, eventType.lengthInMinutes, { excludeId }))) return [];
    // The team's calendars asked live for this day (≤ 3 s, answers ≤ 60 s old reused; ADR 337).
    await refreshLiveBusy(day);
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
