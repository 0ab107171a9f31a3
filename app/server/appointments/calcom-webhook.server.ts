import { eq } from "drizzle-orm";
import { bookingDuration } from "~/lib/booking-calendar";
import { appointments, requests } from "~db/schema";
import { markFollowUpAnswered } from "../follow-ups/answers.server";
import { db } from "../platform/db.server";
import { announceAppointment } from "./appointments.server";
import { providerData, type WebhookPayload } from "./provider-data.server";

// The Cal.com webhook's effect on the cached appointments (POST /api/calcom/webhook).

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
