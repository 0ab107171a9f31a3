import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type AppointmentJson, effectiveStatus } from "~/lib/appointments";
import {
  berlinDayOf,
  bookingDuration,
  firstBookableDay,
  type IsoDay,
} from "~/lib/booking-calendar";
import { summaryOf } from "~/lib/format";
import { appointments, requests } from "~db/schema";
import { calendarInfoOf, queueDemoEvents } from "../caldav/events.server";
import { refreshLiveBusy, staleCalendarNote } from "../caldav/live-busy.server";
import { getConfiguration } from "../configuration/configuration.server";
import { markFollowUpAnswered } from "../follow-ups/answers.server";
import { db } from "../platform/db.server";
import { emitWebhook } from "../webhooks/deliveries.server";
import { videoLinkOf } from "./booking-settings.server";
import { queueBookingNotice, queueConfirmation, queueReminder } from "./mails.server";
import { providerData, type WebhookPayload } from "./provider-data.server";
import { BUILTIN_EVENT_TYPE, writeIfFree } from "./scheduling/builtin.server";
import { scheduling } from "./scheduling/index.server";
import {
  type BookingResult,
  type EventType,
  SchedulingError,
  SLOT_TAKEN,
  type Slot,
} from "./scheduling/types";

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
  };
}

// ---------- event types and slots ----------

/** The configured event type, or null when booking is switched off. */
export async function configuredEventType(key?: string | null): Promise<EventType | null> {
  const wanted = key ?? getConfiguration().appointmentEventType;
  if (!wanted) return null;
  const list = await scheduling().listEventTypes();
  return list.find((e) => e.key === wanted || String(e.id) === wanted) ?? null;
}

/** Event types for the settings page; falls back to the built-in 'demo' (30 min) on failure or empty. */
export async function eventTypesWithFallback(): Promise<EventType[]> {
  try {
    const list = (await scheduling().listEventTypes()).filter((e) => !e.hidden);
    return list.length ? list : [BUILTIN_EVENT_TYPE];
  } catch {
    return [BUILTIN_EVENT_TYPE];
  }
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
): Promise<Slot[]> {
  const configured = await configuredEventType(eventTypeKey);
  const eventType = configured && lengthInMinutes ? { ...configured, lengthInMinutes } : configured;
  if (!eventType) throw new SchedulingError(BOOKING_DISABLED, "not_found", 404);
  const lead = getConfiguration().bookingLeadTime;
  if (day < firstBookableDay(lead.days)) return [];
  return scheduling().getSlots(day, eventType, lead.hours, excludeId);
}

// ---------- booking ----------

/** A new start (booking or reschedule) respects the configured lead time in days and hours. */
export function assertLeadTime(start: Date) {
  const lead = getConfiguration().bookingLeadTime;
  if (
    berlinDayOf(start) < firstBookableDay(lead.days) ||
    start.getTime() < Date.now() + lead.hours * 3600_000
  ) {
    throw new SchedulingError(
      "Dieser Termin liegt vor der Mindestvorlaufzeit. Bitte wähle einen späteren Termin.",
      "invalid",
      400,
    );
  }
}

export type BookInput = {
  request: { id: number; name: string; email: string; phone?: string } | null;
  startTime: string;
  eventTypeKey?: string | null;
  timeZone?: string;
};

/**
 * Status of a Cal.com booking held locally while its request is quarantined (ADR 252): the slot is
 * kept in the appointments table, nothing is sent to Cal.com (which would mail the attendee) until
 * an admin releases the request (quarantine-release.server.ts forwards it).
 */
export const HELD_STATUS = "HELD";

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

export function isUniqueViolation(error: unknown) {
  return (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * Books a slot for a request. The built-in scheduler checks and writes in one immediate
 * transaction (no overlap, buffers and the daily maximum included; the unique start index stays
 * as a last guard); Cal.com answers a taken slot itself.
 */
export async function bookAppointment(input: BookInput): Promise<AppointmentJson> {
  const eventType = await configuredEventType(input.eventTypeKey);
  if (!eventType) throw new SchedulingError(BOOKING_DISABLED, "not_found", 404);
  const start = new Date(input.startTime);
  if (Number.isNaN(start.getTime()))
    throw new SchedulingError("Bitte wähle Datum und Uhrzeit aus", "invalid", 400);
  assertLeadTime(start);
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
  const booking =
    requestRow?.quarantinedAt && provider.name === "calcom"
      ? heldBooking(start)
      : await provider.book({
          requestId: input.request?.id ?? null,
          start: start.toISOString(),
          eventType,
          attendee,
        });
  let row: Row;
  const calendarNote = live ? staleCalendarNote(live) : null;
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
      })
      .returning()
      .get();
  try {
    // The built-in scheduler checks the slot again in the writing transaction (no double booking).
    row =
      provider.name === "builtin"
        ? writeIfFree(new Date(booking.start), eventType.lengthInMinutes, undefined, insert)
        : insert(null);
  } catch (error) {
    if (isUniqueViolation(error)) throw new SchedulingError(SLOT_TAKEN, "slot_taken", 409);
    throw error;
  }
  const json = serializeAppointment(row, requestRow);
  // A quarantined request's booking holds its slot silently (issue 26): no mail to the typed
  // address and no webhook until an admin releases the request.
  if (requestRow?.quarantinedAt) return json;
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
  return json;
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

/** Re-reads one appointment from the scheduling service (built-in: the local row is the truth). */
export async function refreshAppointment(id: number): Promise<AppointmentJson | null> {
  const row = db().select().from(appointments).where(eq(appointments.id, id)).get();
  if (!row) return null;
  const set: Partial<typeof appointments.$inferInsert> = { cachedAt: new Date() };
  if (row.provider === "calcom") {
    const booking = await scheduling()
      .getBooking(row.externalUid)
      .catch((error: unknown) => {
        // The provider's failure texts are worded for visitors ("du", time slots): admins read this.
        if (!(error instanceof SchedulingError)) throw error;
        throw new SchedulingError(
          "Der Termin konnte gerade nicht bei Cal.com abgerufen werden. Bitte versuchen Sie es später erneut.",
          error.code,
          error.status,
        );
      });
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
  return getAppointment(id);
}

/** Removes the cached row only (no status change at the scheduling service). */
export function deleteAppointment(id: number): boolean {
  return db().delete(appointments).where(eq(appointments.id, id)).run().changes > 0;
}

// ---------- Cal.com webhook ----------

/** Applies BOOKING_CREATED / RESCHEDULED / CANCELLED (and REQUESTED/REJECTED) to the cache. */
export function applyCalcomWebhook(body: WebhookPayload): { applied: boolean } {
  const p = body.payload ?? {};
  const trigger = body.triggerEvent ?? "";
  if (!p.uid) return { applied: false };
  const existing = db()
    .select()
    .from(appointments)
    .where(eq(appointments.externalUid, p.uid))
    .get();
  const status = (
    p.status ?? (trigger === "BOOKING_CANCELLED" ? "CANCELLED" : "ACCEPTED")
  ).toUpperCase();
  if (trigger === "BOOKING_CANCELLED" || trigger === "BOOKING_REJECTED") {
    if (!existing) return { applied: false };
    db()
      .update(appointments)
      .set({ status, cachedAt: new Date(), rawData: providerData(p) })
      .where(eq(appointments.id, existing.id))
      .run();
    announceAppointment("appointment.cancelled", existing.id);
    return { applied: true };
  }
  if (
    !["BOOKING_CREATED", "BOOKING_RESCHEDULED", "BOOKING_REQUESTED"].includes(trigger) ||
    !p.startTime
  ) {
    return { applied: false };
  }
  if (trigger === "BOOKING_RESCHEDULED" && p.rescheduleUid) {
    const old = db()
      .update(appointments)
      .set({ status: "CANCELLED", cachedAt: new Date() })
      .where(eq(appointments.externalUid, p.rescheduleUid))
      .returning({ id: appointments.id })
      .get();
    if (old) announceAppointment("appointment.cancelled", old.id);
  }
  const requestId = Number(p.metadata?.requestId);
  const duration =
    p.length ??
    (p.endTime
      ? Math.round((new Date(p.endTime).getTime() - new Date(p.startTime).getTime()) / 60_000)
      : 30);
  const values = {
    status,
    startTime: new Date(p.startTime),
    durationMinutes: bookingDuration(duration),
    location: p.location ?? null,
    rawData: providerData(p),
    cachedAt: new Date(),
  };
  if (existing) {
    db().update(appointments).set(values).where(eq(appointments.id, existing.id)).run();
  } else {
    const request =
      Number.isInteger(requestId) && requestId > 0
        ? db().select({ id: requests.id }).from(requests).where(eq(requests.id, requestId)).get()
        : undefined;
    const created = db()
      .insert(appointments)
      .values({
        ...values,
        requestId: request?.id ?? null,
        provider: "calcom",
        externalUid: p.uid,
        eventTypeKey: p.type ?? "demo",
        eventTypeName: p.eventTitle ?? "Termin",
      })
      .onConflictDoNothing()
      .returning({ id: appointments.id })
      .get();
    if (created && !["CANCELLED", "REJECTED"].includes(status)) {
      announceAppointment("appointment.booked", created.id);
      // Booked at Cal.com for one of our requests: its open follow-up needs no chasing (ADR 351).
      if (request) markFollowUpAnswered(request.id, "booking");
    }
  }
  return { applied: true };
}
