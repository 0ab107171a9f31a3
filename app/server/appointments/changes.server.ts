import { and, eq, sql } from "drizzle-orm";
import type { AppointmentJson } from "~/lib/appointments";
import { berlinDayOf } from "~/lib/booking-calendar";
import { appointments, requests } from "~db/schema";
import { addDemoHost } from "../assignment/fair-assignment.server";
import { queueDemoEvents } from "../caldav/events.server";
import { refreshLiveBusy } from "../caldav/live-busy.server";
import { db } from "../platform/db.server";
import {
  announceAppointment,
  assertLeadTime,
  BOOKING_DISABLED,
  getAppointment,
  HELD_STATUS,
  isUniqueViolation,
} from "./appointments.server";
import { bookingEnabled } from "./booking-settings.server";
import {
  type Attendee,
  dropReminder,
  queueBookingNotice,
  queueCancellation,
  queueConfirmation,
  queueReminder,
} from "./mails.server";
import { LINK_CANCELLED, LINK_OUTDATED } from "./manage-link.server";
import { INACTIVE_STATUSES } from "./one-per-request.server";
import { writeIfFree } from "./scheduling/builtin.server";
import { scheduling } from "./scheduling/index.server";
import { SchedulingError, SLOT_TAKEN } from "./scheduling/types";

/**
 * Cancelling and rescheduling a booking: the one implementation every caller (the visitor's
 * signed link, admin paths, API) goes through. Each change raises the booking's sequence (the
 * .ics SEQUENCE and the version of the visitor's link), moves or drops the reminder and mails
 * the visitor; admins only with the booking-notice setting.
 */
type Row = typeof appointments.$inferSelect;

export const ALREADY_CANCELLED = "Dieser Termin wurde bereits abgesagt.";
export const NOT_FOUND = "Termin nicht gefunden.";

/** A booking with its request (none for a Cal.com booking without one); 404 when it is unknown. */
export function appointmentWithRequest(id: number) {
  const found = db()
    .select({ row: appointments, request: requests })
    .from(appointments)
    .leftJoin(requests, eq(requests.id, appointments.requestId))
    .where(eq(appointments.id, id))
    .get();
  if (!found) throw new SchedulingError(NOT_FOUND, "not_found", 404);
  return found;
}

function load(id: number): { row: Row; who: Attendee | null; quarantined: boolean } {
  const found = appointmentWithRequest(id);
  const r = found.request;
  // A quarantined request's booking changes silently (issue 26): no mails to the typed address,
  // no webhooks (as bookAppointment announces nothing while the request is held).
  const quarantined = Boolean(r?.quarantinedAt);
  const mailable = r && !quarantined;
  return {
    row: found.row,
    who: mailable ? { id: r.id, name: r.name, email: r.email } : null,
    quarantined,
  };
}

/**
 * The revision the caller saw (the visitor's link carries one): a booking changed since is
 * refused with 410 like an outdated link, checked again in the UPDATE's WHERE.
 */
function assertRevision(row: Row, expected: number | undefined) {
  if (expected !== undefined && row.sequence !== expected)
    throw new SchedulingError(
      row.status === "CANCELLED" ? LINK_CANCELLED : LINK_OUTDATED,
      "invalid",
      410,
    );
}

function assertActive(row: Row) {
  if (INACTIVE_STATUSES.includes(row.status))
    throw new SchedulingError(ALREADY_CANCELLED, "invalid", 409);
  if (row.startTime.getTime() <= Date.now())
    throw new SchedulingError("Dieser Termin liegt in der Vergangenheit.", "invalid", 409);
}

/**
 * Cancels a booking (Cal.com: at Cal.com too, unless it is still held locally — ADR 252 — and
 * Cal.com never saw it); the built-in slot is free again at once.
 */
export async function cancelAppointment(
  id: number,
  expectedSequence?: number,
): Promise<AppointmentJson> {
  const { row, who, quarantined } = load(id);
  assertRevision(row, expectedSequence);
  assertActive(row);
  if (row.provider === "calcom" && row.status !== HELD_STATUS)
    await scheduling().cancel(row.externalUid);
  const updated = db()
    .update(appointments)
    .set({ status: "CANCELLED", sequence: sql`${appointments.sequence} + 1`, cachedAt: new Date() })
    // Only the revision read above: a concurrent change wins, this one reports the conflict.
    .where(and(eq(appointments.id, id), eq(appointments.sequence, row.sequence)))
    .returning()
    .get();
  if (!updated) {
    if (expectedSequence !== undefined) throw new SchedulingError(LINK_OUTDATED, "invalid", 410);
    throw new SchedulingError(ALREADY_CANCELLED, "invalid", 409);
  }
  dropReminder(id);
  // The demo event leaves the calendars (ADR 336).
  queueDemoEvents(id);
  if (!quarantined) announceAppointment("appointment.cancelled", id);
  if (updated.provider === "builtin" && who) {
    queueCancellation(updated, who);
    queueBookingNotice(updated, who, "cancelled");
  }
  return getAppointment(id) as AppointmentJson;
}

/**
 * Moves a built-in booking to another offered slot (lead time, opening hours; the unique slot
 * index refuses a taken one). It stays one booking: same UID, next SEQUENCE, so the
 * one-appointment-per-request rule holds. Cal.com bookings are moved at Cal.com.
 */
export async function rescheduleAppointment(
  id: number,
  startTime: string,
  expectedSequence?: number,
): Promise<AppointmentJson> {
  const { row, who, quarantined } = load(id);
  assertRevision(row, expectedSequence);
  assertActive(row);
  if (row.provider !== "builtin")
    throw new SchedulingError(
      "Dieser Termin kann nur über den Link des Terminservices verschoben werden.",
      "invalid",
      400,
    );
  // Moving takes a new slot like booking one: not while booking is switched off.
  if (!bookingEnabled()) throw new SchedulingError(BOOKING_DISABLED, "not_found", 404);
  const start = new Date(startTime);
  if (!startTime || Number.isNaN(start.getTime()))
    throw new SchedulingError("Bitte wähle Datum und Uhrzeit aus", "invalid", 400);
  if (start.getTime() === row.startTime.getTime())
    throw new SchedulingError(
      "Das ist bereits dein Termin. Bitte wähle eine andere Uhrzeit.",
      "invalid",
      400,
    );
  assertLeadTime(start);
  // The team's calendars are asked again for the new day first (≤ 3 s, ADR 337).
  await refreshLiveBusy(berlinDayOf(start), { maxAgeMs: 0 });
  let updated: Row | undefined;
  try {
    // The moved booking leaves its old time: it is left out of the check of its new one. It
    // keeps its host when that admin is free at the new time (ADR 338).
    updated = writeIfFree(
      start,
      row.durationMinutes,
      id,
      (hostId) =>
        db()
          .update(appointments)
          .set({
            startTime: start,
            sequence: sql`${appointments.sequence} + 1`,
            cachedAt: new Date(),
            hostAdminId: hostId ?? row.hostAdminId,
          })
          .where(and(eq(appointments.id, id), eq(appointments.sequence, row.sequence)))
          .returning()
          .get(),
      row.hostAdminId,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new SchedulingError(SLOT_TAKEN, "slot_taken", 409);
    throw error;
  }
  if (!updated && expectedSequence !== undefined)
    throw new SchedulingError(LINK_OUTDATED, "invalid", 410);
  if (!updated)
    throw new SchedulingError(
      "Der Termin wurde gerade geändert. Bitte lade die Seite neu.",
      "invalid",
      409,
    );
  dropReminder(id);
  // The demo event moves with it (If-Match, next SEQUENCE; ADR 336), or to the new host's calendar.
  queueDemoEvents(id);
  if (updated.hostAdminId !== row.hostAdminId) addDemoHost(id);
  if (!quarantined) announceAppointment("appointment.booked", id, updated.sequence);
  if (who) {
    queueConfirmation(updated, who, "rescheduled");
    queueReminder(updated, who);
    queueBookingNotice(updated, who, "rescheduled");
  }
  return getAppointment(id) as AppointmentJson;
}
