import { eq } from "drizzle-orm";
import { appointments } from "~db/schema";
import { db } from "../platform/db.server";
import { INACTIVE_STATUSES } from "./one-per-request.server";

/** The outbox kind of the booking reminder (dropped or moved with its booking). */
export const REMINDER_KIND = "booking-reminder";

/**
 * Whether a queued reminder is about a booking revision that no longer stands: the booking is
 * gone or inactive, or it was moved (a reminder's links expire at the start it was written for).
 * The sender checks this right before sending, so a reminder that escaped dropReminder (in the
 * middle of a batch, failed and retried) never reminds of a cancelled or moved appointment.
 */
export function isStaleReminder(mail: {
  kind: string;
  appointmentId: number | null;
  linksExpireAt: Date | null;
}): boolean {
  if (mail.kind !== REMINDER_KIND || mail.appointmentId === null) return false;
  const row = db()
    .select({ status: appointments.status, startTime: appointments.startTime })
    .from(appointments)
    .where(eq(appointments.id, mail.appointmentId))
    .get();
  if (!row || INACTIVE_STATUSES.includes(row.status)) return true;
  return mail.linksExpireAt !== null && mail.linksExpireAt.getTime() !== row.startTime.getTime();
}
