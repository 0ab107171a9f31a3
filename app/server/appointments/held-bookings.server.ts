import { and, count, eq, gte, inArray, lte } from "drizzle-orm";
import { freeHostsAt, freeSlots } from "~/lib/availability";
import { berlinDayOf, dayBoundsUtc } from "~/lib/booking-calendar";
import { appointments } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db, transaction } from "../platform/db.server";
import { availabilityInput, isUniqueViolation } from "./scheduling/builtin.server";

/**
 * Bookings of requests held in the spam quarantine (ADR 355). The visitor books as anyone else
 * (same slots, same answers, same refusals); behind that, the booking holds its slot only
 * tentatively: at most `spam.heldBookingsPerDay` of them a Berlin day (counted in the writing
 * transaction, so parallel bookings and restarts cannot pass the cap) hold their slot; above the
 * cap the booking is recorded with status HELD and blocks nobody. A Cal.com booking is always
 * recorded that way (it reaches Cal.com only on release). On release every held booking is
 * checked again: still free, it becomes an ordinary booking; taken, it ends as `gone` ("Termin
 * nicht mehr frei") and the release mail offers the visitor's booking link instead.
 */

type Row = typeof appointments.$inferSelect;

export { SLOT_GONE } from "~/lib/appointment-status";

/** Held requests' bookings a Berlin day that may hold their slot. */
export const heldBookingsPerDay = (): number => getConfiguration().spam.heldBookingsPerDay;

/**
 * How many held bookings made on the Berlin day of `now` hold (or held) their slot. Called inside
 * the booking's immediate transaction: the count and the write are one step.
 */
export function heldHoldsOfDay(now = new Date()): number {
  const { start: from, end: to } = dayBoundsUtc(berlinDayOf(now));
  return (
    db()
      .select({ n: count() })
      .from(appointments)
      .where(
        and(
          eq(appointments.heldBooking, "holds"),
          gte(appointments.createdAt, from),
          lte(appointments.createdAt, to),
        ),
      )
      .get()?.n ?? 0
  );
}

/** Whether a held request's new built-in booking may hold its slot (inside the transaction). */
export const mayHoldSlot = (now = new Date()) => heldHoldsOfDay(now) < heldBookingsPerDay();

/**
 * The release's second look at a held built-in booking, in one immediate transaction: free (the
 * same rules as a booking, the notice judged as when it was made, its own row left out), it
 * becomes an ordinary booking of the host now free there; taken or past, it ends as `gone`.
 */
export function recheckHeldBuiltin(row: Row, now = new Date()): boolean {
  const keep = () =>
    transaction(() => {
      const current = db().select().from(appointments).where(eq(appointments.id, row.id)).get();
      if (!current || current.status === "CANCELLED") return false;
      const start = current.startTime;
      if (start.getTime() <= now.getTime()) return false;
      const input = availabilityInput(berlinDayOf(start), current.durationMinutes, {
        excludeId: current.id,
        now: current.createdAt,
      });
      if (!freeSlots(input).some((s) => s.getTime() === start.getTime())) return false;
      const hostAdminId = input.hosts?.length
        ? (freeHostsAt(start, input, current.hostAdminId)[0] ?? null)
        : current.hostAdminId;
      db()
        .update(appointments)
        .set({ status: "ACCEPTED", hostAdminId, cachedAt: new Date() })
        .where(eq(appointments.id, current.id))
        .run();
      return true;
    });
  let kept = false;
  try {
    kept = keep();
  } catch (error) {
    // The unique slot index as the last guard: someone holds that very start.
    if (!isUniqueViolation(error)) throw error;
  }
  if (!kept) markGone(row.id);
  return kept;
}

/** A held booking whose slot was not free any more at its release: cancelled, marked `gone`. */
export function markGone(id: number) {
  db()
    .update(appointments)
    .set({ status: "CANCELLED", heldBooking: "gone", cachedAt: new Date() })
    .where(eq(appointments.id, id))
    .run();
}

/** For the admin's request list: the requests among `ids` whose held booking's slot was gone. */
export function goneHeldBookings(ids: number[]): Map<number, { start: string; title: string }> {
  const found = new Map<number, { start: string; title: string }>();
  if (!ids.length) return found;
  const rows = db()
    .select({
      requestId: appointments.requestId,
      start: appointments.startTime,
      title: appointments.eventTypeName,
    })
    .from(appointments)
    .where(and(inArray(appointments.requestId, ids), eq(appointments.heldBooking, "gone")))
    .all();
  for (const r of rows)
    if (r.requestId !== null)
      found.set(r.requestId, { start: r.start.toISOString(), title: r.title });
  return found;
}
