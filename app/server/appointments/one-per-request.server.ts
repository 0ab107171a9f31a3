import { and, eq, gt, notInArray } from "drizzle-orm";
import { GROUP_STATUSES } from "~/lib/appointment-status";
import { appointments } from "~db/schema";
import { db } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";

/** Statuses that free the request for a new booking: the spec's cancelled group and a rejection. */
export const INACTIVE_STATUSES: readonly string[] = [...GROUP_STATUSES.cancelled, "REJECTED"];

export const ALREADY_BOOKED =
  "Für diese Anfrage ist bereits ein Termin gebucht. Bitte sage ihn zuerst ab, bevor du einen neuen buchst.";

/** Bookings of this process that are between reservation and their row (or failure). */
const inFlight = new Set<number>();

/** A future appointment of the request that is not cancelled, deleted or rejected. */
export function hasActiveAppointment(requestId: number, now = new Date()) {
  return Boolean(
    db()
      .select({ id: appointments.id })
      .from(appointments)
      .where(
        and(
          eq(appointments.requestId, requestId),
          gt(appointments.startTime, now),
          notInArray(appointments.status, [...INACTIVE_STATUSES]),
        ),
      )
      .get(),
  );
}

/**
 * One active appointment per request (ADR 081). The check and the reservation happen without an
 * await in between (one process, one thread: atomic), before the external call to Cal.com; the
 * reservation is released when `book` settles, after its row is written or it failed. A request
 * with a booking (or one under way) is refused with 409.
 */
export async function withRequestReservation<T>(
  requestId: number,
  book: () => Promise<T>,
): Promise<T | Failure> {
  if (inFlight.has(requestId) || hasActiveAppointment(requestId))
    return failure(409, ALREADY_BOOKED);
  inFlight.add(requestId);
  try {
    return await book();
  } finally {
    inFlight.delete(requestId);
  }
}
