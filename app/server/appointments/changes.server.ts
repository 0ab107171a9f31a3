import { and, eq, sql } from "drizzle-orm";
import type { AppointmentJson } from "~/lib/appointments";
import { berlinDayOf, PICK_DATE_AND_TIME } from "~/lib/booking-calendar";
import { appointments, requests } from "~db/schema";
import { addDemoHost } from "../assignment/fair-assignment.server";
import { queueDemoEvents } from "../caldav/events.server";
import { refreshLiveBusy } from "../caldav/live-busy.server";
import { db } from "../platform/db.server";
import { type Failure, failure, type Result } from "../platform/result.server";
import {
  APPOINTMENT_NOT_FOUND,
  announceAppointment,
  BOOKING_DISABLED,
  getAppointment,
  HELD_STATUS,
  leadTimeRefusal,
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

/**
 * Cancelling and rescheduling a booking: the one implementation every caller (the visitor's
 * signed link, admin paths, API) goes through. Each change raises the booking's sequence (the
 * .ics SEQUENCE and the version of the visitor's link), moves or drops the reminder and mails
 * the visitor; admins only with the booking-notice setting.
 */
type Row = typeof appointments.$inferSelect;
type RequestRow = typeof requests.$inferSelect;
type Changed = Result<{ value: AppointmentJson }>;

export const ALREADY_CANCELLED = "Dieser Termin wurde bereits abgesagt.";

/** A booking with its request (none for a Cal.com booking without one); 404 when it is unknown. */
export function appointmentWithRequest(
  id: number,
): Result<{ row: Row; request: RequestRow | null }> {
  const found = db()
    .select({ row: appointments, request: requests })
    .from(appointments)
    .leftJoin(requests, eq(requests.id, appointments.requestId))
    .where(eq(appointments.id, id))
    .get();
  return found ? { ok: true, ...found } : failure(404, APPOINTMENT_NOT_FOUND);
}

function load(id: number): Result<{ row: Row; who: Attendee | null; quarantined: boolean }> {
  const found = appointmentWithRequest(id);
  if (!found.ok) return found;
  const r = found.request;
  // A quarantined request's booking changes silently (ADR 252): no mails to the typed address,
  // no webhooks (as bookAppointment announces nothing while the request is held).
  const quarantined = Boolean(r?.quarantinedAt);
  const mailable = r && !quarantined;
  return {
    ok: true,
    row: found.row,
    who: mailable ? { id: r.id, name: r.name, email: r.email } : null,
    quarantined,
  };
}

/**
 * The revision the caller saw (the visitor's link carries one): a booking changed since is
 * refused with 410 like an outdated link, checked again in the UPDATE's WHERE.
 */
function revisionRefusal(row: Row, expected: number | undefined): Failure | null {
  if (expected === undefined || row.sequence === expected) return null;
  return failure(410, row.status === "CANCELLED" ? LINK_CANCELLED : LINK_OUTDATED);
}

function inactiveRefusal(row: Row): Failure | null {
  if (INACTIVE_STATUSES.includes(row.status)) return failure(409, ALREADY_CANCELLED);
  if (row.startTime.getTime() <= Date.now())
    return failure(409, "Dieser Termin liegt in der Vergangenheit.");
  return null;
}

/** The booking to change, unless the caller's revision is outdated or it is no longer active. */
function loadChangeable(id: number, expectedSequence: number | undefined) {
  const loaded = load(id);
  if (!loaded.ok) return loaded;
  return revisionRefusal(loaded.row, expectedSequence) ?? inactiveRefusal(loaded.row) ?? loaded;
}

const changed = (id: number): Changed => ({
  ok: true,
  value: getAppointment(id) as AppointmentJson,
});

/**
 * Cancels a booking (Cal.com: at Cal.com too, unless it is still held locally — ADR 252 — and
 * Cal.com never saw it); the built-in slot is free again at once.
 */
export async function cancelAppointment(id: number, expectedSequence?: number): Promise<Changed> {
  const loaded = loadChangeable(id, expectedSequence);
  if (!loaded.ok) return loaded;
  const { row, who, quarantined } = loaded;
  if (row.provider === "calcom" && row.status !== HELD_STATUS) {
    const cancelled = await scheduling().cancel(row.externalUid);
    if (!cancelled.ok) return cancelled;
  }
  const updated = db()
    .update(appointments)
    .set({ status: "CANCELLED", sequence: sql`${appointments.sequence} + 1`, cachedAt: new Date() })
    // Only the revision read above: a concurrent change wins, this one reports the conflict.
    .where(and(eq(appointments.id, id), eq(appointments.sequence, row.sequence)))
    .returning()
    .get();
  if (!updated)
    return expectedSequence !== undefined
      ? failure(410, LINK_OUTDATED)
      : failure(409, ALREADY_CANCELLED);
  dropReminder(id);
  // The demo event leaves the calendars (ADR 336).
  queueDemoEvents(id);
  if (!quarantined) announceAppointment("appointment.cancelled", id);
  if (updated.provider === "builtin" && who) {
    queueCancellation(updated, who);
    queueBookingNotice(updated, who, "cancelled");
  }
  return changed(id);
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
): Promise<Changed> {
  const loaded = loadChangeable(id, expectedSequence);
  if (!loaded.ok) return loaded;
  const { row, who, quarantined } = loaded;
  if (row.provider !== "builtin")
    return failure(
      400,
      "Dieser Termin kann nur über den Link des Terminservices verschoben werden.",
    );
  // Moving takes a new slot like booking one: not while booking is switched off.
  if (!bookingEnabled()) return failure(404, BOOKING_DISABLED);
  const start = new Date(startTime);
  if (!startTime || Number.isNaN(start.getTime())) return failure(400, PICK_DATE_AND_TIME);
  if (start.getTime() === row.startTime.getTime())
    return failure(400, "Das ist bereits dein Termin. Bitte wähle eine andere Uhrzeit.");
  const early = leadTimeRefusal(start);
  if (early) return early;
  // The team's calendars are asked again for the new day first (≤ 3 s, ADR 337).
  await refreshLiveBusy(berlinDayOf(start), { maxAgeMs: 0 });
  // The moved booking leaves its old time: it is left out of the check of its new one. It keeps
  // its host when that admin is free at the new time (ADR 338).
  const written = writeIfFree(
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
  if (!written.ok) return written;
  const updated = written.value;
  if (!updated && expectedSequence !== undefined) return failure(410, LINK_OUTDATED);
  if (!updated) return failure(409, "Der Termin wurde gerade geändert. Bitte lade die Seite neu.");
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
  return changed(id);
}
