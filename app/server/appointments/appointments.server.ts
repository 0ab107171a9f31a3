import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { HELD_STATUS } from "~/lib/appointment-status";
import { type AppointmentJson, effectiveStatus } from "~/lib/appointments";
import {
  berlinDayOf,
  bookingDuration,
  firstBookableDay,
  type IsoDay,
  PICK_DATE_AND_TIME,
} from "~/lib/booking-calendar";
import { summaryOf } from "~/lib/format";
import { appointments, requests } from "~db/schema";
import { calendarInfoOf, queueDemoEvents } from "../caldav/events.server";
import { refreshLiveBusy, staleCalendarNote } from "../caldav/live-busy.server";
import { getConfiguration } from "../configuration/configuration.server";
import { moveOnAppointment } from "../pipeline/auto-moves.server";
import { db } from "../platform/db.server";
import { failure, type Result } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { emitWebhook } from "../webhooks/deliveries.server";
import { videoLinkOf } from "./booking-settings.server";
import { mayHoldSlot } from "./held-bookings.server";
import { queueBookingNotice, queueConfirmation, queueReminder } from "./mails.server";
import { providerData } from "./provider-data.server";
import type { Scheduled } from "./scheduling/attempt.server";
import { BUILTIN_EVENT_TYPE, isUniqueViolation, writeIfFree } from "./scheduling/builtin.server";
import { scheduling } from "./scheduling/index.server";
import { type BookingResult, type EventType, SLOT_TAKEN, type Slot } from "./scheduling/types";

type Row = typeof appointments.$inferSelect;
type RequestRow = typeof requests.$inferSelect;

export function serializeAppointment(
  row: Row,
  request: RequestRow | null,
  now = Date.now(),
): AppointmentJson {
  const status = effectiveStatus(row.status);
  return {
    id: row.id,
    startTime: row.startTime.toISOString(),
    endTime: new Date(row.startTime.getTime() + row.durationMinutes * 60_000).toISOString(),
    calcomEventId: row.provider === "calcom" ? row.externalUid : null,
    eventTypeKey: row.eventTypeKey,
    eventType: { name: row.eventTypeName, duration: bookingDuration(row.durationMinutes) },
    status,
    calcomData: { status, location: row.location, calcomUrl: row.url },
    request: request
      ? {
          id: request.id,
          name: request.name,
          email: request.email,
          phone: request.phone,
          description: request.description,
          summary: summaryOf(request),
        }
      : null,
    cacheInfo: { age: row.cachedAt ? Math.max(0, (now - row.cachedAt.getTime()) / 60_000) : null },
    provider: row.provider,
    videoUrl: videoLinkOf(row),
    ownVideoUrl: Boolean(row.videoUrl),
    calendar: calendarInfoOf(row),
    ...(row.heldBooking === "gone" ? { slotGone: true } : {}),
  };
}

// ---------- event types and slots ----------

/** The configured event type, or null when booking is switched off (or the type is gone). */
export async function configuredEventType(
  key?: string | null,
): Promise<Scheduled<EventType | null>> {
  const wanted = key ?? getConfiguration().appointmentEventType;
  if (!wanted) return { ok: true, value: null };
  const list = await scheduling().listEventTypes();
  if (!list.ok) return list;
  const found = list.value.find((e) => e.key === wanted || String(e.id) === wanted);
  return { ok: true, value: found ?? null };
}

/** Event types for the settings page; falls back to the built-in 'demo' (30 min) on failure or empty. */
export async function eventTypesWithFallback(): Promise<EventType[]> {
  const list = await scheduling().listEventTypes();
  const shown = list.ok ? list.value.filter((e) => !e.hidden) : [];
  return shown.length ? shown : [BUILTIN_EVENT_TYPE];
}

/** The configured event type for a booking; booking switched off is a 404. */
async function bookableEventType(key?: string | null): Promise<Scheduled<EventType>> {
  const configured = await configuredEventType(key);
  if (!configured.ok) return configured;
  if (!configured.value) return failure(404, BOOKING_DISABLED);
  return { ok: true, value: configured.value };
}

export const BOOKING_DISABLED = "Terminbuchungen sind derzeit deaktiviert.";

/**
 * Free slots of one Berlin day (lead-time hours as minimum notice). `lengthInMinutes` offers
 * another duration's grid (moving a booking keeps its own length, which its check uses too);
 * `excludeId` names the booking being moved: it does not block the slots around it.
 */
export async function availableSlots(
  day: IsoDay,
  eventTypeKey?: string | null,
  lengthInMinutes?: number,
  excludeId?: number,
): Promise<Scheduled<Slot[]>> {
  const configured = await bookableEventType(eventTypeKey);
  if (!configured.ok) return configured;
  const eventType = lengthInMinutes ? { ...configured.value, lengthInMinutes } : configured.value;
  const lead = getConfiguration().bookingLeadTime;
  if (day < firstBookableDay(lead.days)) return { ok: true, value: [] };
  return scheduling().getSlots(day, eventType, lead.hours, excludeId);
}

// ---------- booking ----------

export const BEFORE_LEAD_TIME =
  "Dieser Termin liegt vor der Mindestvorlaufzeit. Bitte wähle einen späteren Termin.";

/**
 * A new start (booking or reschedule) respects the configured lead time in days and hours: the
 * refusal when it does not, else null.
 */
export function leadTimeRefusal(start: Date) {
  const lead = getConfiguration().bookingLeadTime;
  const early =
    berlinDayOf(start) < firstBookableDay(lead.days) ||
    start.getTime() < Date.now() + lead.hours * 3600_000;
  return early ? failure(400, BEFORE_LEAD_TIME) : null;
}

export type BookInput = {
  request: { id: number; name: string; email: string; phone?: string } | null;
  startTime: string;
  eventTypeKey?: string | null;
  timeZone?: string;
};

/**
 * Status of a booking held locally while its request is quarantined (ADRs 252, 355): a Cal.com one
 * is not sent to Cal.com (which would mail the attendee) until an admin releases the request
 * (quarantine-release.server.ts forwards it); a built-in one above the daily cap holds no slot.
 */
export { HELD_STATUS };

function heldBooking(start: Date): BookingResult {
  return {
    uid: `held-${randomUUID()}`,
    start: start.toISOString(),
    end: start.toISOString(),
    status: HELD_STATUS,
    location: null,
    url: null,
    raw: null,
  };
}

/**
 * Books a slot for a request. The built-in scheduler checks and writes in one immediate
 * transaction (no overlap, buffers and the daily maximum included; the unique start index stays
 * as a last guard); Cal.com answers a taken slot itself.
 */
export async function bookAppointment(
  input: BookInput,
): Promise<Result<{ value: AppointmentJson }>> {
  const configured = await bookableEventType(input.eventTypeKey);
  if (!configured.ok) return configured;
  const eventType = configured.value;
  const start = new Date(input.startTime);
  if (Number.isNaN(start.getTime())) return failure(400, PICK_DATE_AND_TIME);
  const early = leadTimeRefusal(start);
  if (early) return early;
  const provider = scheduling();
  const attendee = {
    name: input.request?.name ?? "Demo",
    email: input.request?.email ?? "demo@example.com",
    phone: input.request?.phone,
    timeZone:
      input.timeZone && /^[A-Za-z_]+\/[A-Za-z_/+-]+$/.test(input.timeZone)
        ? input.timeZone
        : "Europe/Berlin",
  };
  const requestRow = input.request
    ? (db().select().from(requests).where(eq(requests.id, input.request.id)).get() ?? null)
    : null;
  // The team's calendars are asked again just before the writing transaction (≤ 3 s): a meeting
  // entered a moment ago wins. One that cannot answer now counts with its last known busy times,
  // and the booking carries a note for the card (ADR 337).
  const live =
    provider.name === "builtin" ? await refreshLiveBusy(berlinDayOf(start), { maxAgeMs: 0 }) : null;
  // A quarantined request's Cal.com booking is held here (Cal.com would mail the typed address at
  // once); an admin's release forwards it (quarantine-release.server.ts, ADR 252).
  const booked =
    requestRow?.quarantinedAt && provider.name === "calcom"
      ? { ok: true as const, value: heldBooking(start) }
      : await provider.book({
          requestId: input.request?.id ?? null,
          start: start.toISOString(),
          eventType,
          attendee,
        });
  if (!booked.ok) return booked;
  const booking = booked.value;
  const calendarNote = live ? staleCalendarNote(live) : null;
  const held = Boolean(requestRow?.quarantinedAt);
  // A held request's booking holds its slot only within the held bookings' daily cap, decided in
  // the writing transaction (ADR 355); above it (and at Cal.com) it is recorded as HELD.
  const heldAs = (): { heldBooking: "holds" | "waits"; status?: string } =>
    provider.name === "builtin" && mayHoldSlot()
      ? { heldBooking: "holds" }
      : { heldBooking: "waits", status: HELD_STATUS };
  const insert = (hostAdminId: number | null) =>
    db()
      .insert(appointments)
      .values({
        requestId: input.request?.id ?? null,
        provider: provider.name,
        externalUid: booking.uid,
        eventTypeKey: eventType.key,
        eventTypeName: eventType.title,
        startTime: new Date(booking.start),
        durationMinutes: eventType.lengthInMinutes,
        status: booking.status,
        location: booking.location,
        url: booking.url,
        rawData: providerData(booking.raw),
        cachedAt: new Date(),
        hostAdminId,
        calendarNote,
        ...(held ? heldAs() : {}),
      })
      .returning()
      .get();
  // The built-in scheduler checks the slot again in the writing transaction (no double booking).
  const written =
    provider.name === "builtin"
      ? writeIfFree(new Date(booking.start), eventType.lengthInMinutes, undefined, insert)
      : insertUnlessTaken(() => insert(null));
  if (!written.ok) return written;
  const row = written.value;
  const json = serializeAppointment(row, requestRow);
  // A quarantined request's booking is silent (ADR 250): no mail to the typed address and no
  // webhook until an admin releases the request; the caller sees it as booked like any other.
  if (held) return { ok: true, value: asBooked(json) };
  // Into the host's (or the team's) demo calendars, by the durable event outbox (ADR 336).
  if (provider.name === "builtin") queueDemoEvents(row.id);
  if (provider.name === "builtin" && input.request) {
    const who = { id: input.request.id, name: input.request.name, email: input.request.email };
    queueConfirmation(row, who);
    queueReminder(row, who);
    queueBookingNotice(row, who, "booked");
  }
  emitWebhook(
    { event: "appointment.booked", data: json },
    String(row.id),
    json.request?.id ?? null,
  );
  // A booked demo moves its request to "Demo gebucht" (ADR 345).
  moveOnAppointment("appointment.booked", json.request?.id);
  return { ok: true, value: json };
}

/** A held booking as its booker sees it: booked like any other (ADR 250's promise, ADR 355). */
function asBooked(json: AppointmentJson): AppointmentJson {
  const status = json.status === HELD_STATUS ? "ACCEPTED" : json.status;
  return { ...json, status, calcomData: { ...json.calcomData, status } };
}

/** A Cal.com booking's row; its uid already stored (a parallel copy) is the slot taken. */
function insertUnlessTaken(insert: () => Row): Result<{ value: Row }> {
  try {
    return { ok: true, value: insert() };
  } catch (error) {
    if (isUniqueViolation(error)) return failure(409, SLOT_TAKEN);
    throw error;
  }
}

/**
 * Webhooks of an appointment that was booked or cancelled (each at most once per appointment and
 * `revision`: a reschedule announces the moved booking as booked again under its new revision).
 * Every rule that cancels or books an appointment calls this after writing the row.
 */
export function announceAppointment(
  event: "appointment.booked" | "appointment.cancelled",
  id: number,
  revision?: number,
) {
  const json = getAppointment(id);
  const key = revision ? `${id}:${revision}` : String(id);
  if (json) emitWebhook({ event, data: json }, key, json.request?.id ?? null);
  // The pipeline follows (ADR 345): booked → "Demo gebucht", cancelled → back from it.
  moveOnAppointment(event, json?.request?.id);
}

// ---------- refresh, delete (the list: list.server.ts) ----------

export function getAppointment(id: number) {
  const r = db()
    .select({ appointment: appointments, request: requests })
    .from(appointments)
    .leftJoin(requests, eq(requests.id, appointments.requestId))
    .where(eq(appointments.id, id))
    .get();
  return r ? serializeAppointment(r.appointment, r.request) : null;
}

export const APPOINTMENT_NOT_FOUND = "Termin nicht gefunden.";

/** Re-reads one appointment from the scheduling service (built-in: the local row is the truth). */
export async function refreshAppointment(id: number): Promise<Result<{ value: AppointmentJson }>> {
  const row = db().select().from(appointments).where(eq(appointments.id, id)).get();
  if (!row) return failure(404, APPOINTMENT_NOT_FOUND);
  const set: Partial<typeof appointments.$inferInsert> = { cachedAt: new Date() };
  if (row.provider === "calcom") {
    const fetched = await scheduling().getBooking(row.externalUid);
    // The provider's failure texts are worded for visitors ("du", time slots): admins read this.
    if (!fetched.ok)
      return failure(
        fetched.status,
        "Der Termin konnte gerade nicht bei Cal.com abgerufen werden. Bitte versuchen Sie es später erneut.",
      );
    const booking = fetched.value;
    if (!booking) set.status = "CANCELLED";
    else {
      set.status = booking.status;
      set.startTime = new Date(booking.start);
      set.durationMinutes = Math.max(
        1,
        Math.round((new Date(booking.end).getTime() - new Date(booking.start).getTime()) / 60_000),
      );
      set.location = booking.location;
      set.url = booking.url ?? row.url;
      set.rawData = providerData(booking.raw);
    }
  }
  db().update(appointments).set(set).where(eq(appointments.id, id)).run();
  if (set.status === "CANCELLED" && row.status !== "CANCELLED")
    announceAppointment("appointment.cancelled", id);
  const json = getAppointment(id);
  return json ? { ok: true, value: json } : failure(404, APPOINTMENT_NOT_FOUND);
}

/** Removes the cached row only (no status change at the scheduling service); audited (ADR 319). */
export function deleteAppointment(id: number, actor: AuditActor = "System"): boolean {
  const gone = db().delete(appointments).where(eq(appointments.id, id)).run().changes > 0;
  if (gone) audit(actor, "appointment-deleted", `Termin ${id}`);
  return gone;
}
