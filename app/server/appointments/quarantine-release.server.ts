import { and, eq, ne } from "drizzle-orm";
import { appointments, mailOutbox, requests } from "~db/schema";
import { queueDemoEvents } from "../caldav/events.server";
import { db } from "../platform/db.server";
import { announceAppointment, configuredEventType, HELD_STATUS } from "./appointments.server";
import { queueBookingNotice, queueConfirmation, queueReminder } from "./mails.server";
import { providerData } from "./provider-data.server";
import { scheduling } from "./scheduling/index.server";

/**
 * What a booking made while its request was quarantined still owes once the request is released:
 * a built-in booking its confirmation, reminder and admin notice (each once: a mail already in
 * the outbox for the appointment is not queued again) and its `appointment.booked` webhook (keyed
 * per appointment, so at most once); a held Cal.com booking is forwarded to Cal.com now (Cal.com
 * sends its own mails). A slot taken at Cal.com meanwhile cancels the held row.
 */
export async function releaseHeldBookings(requestId: number): Promise<void> {
  const request = db().select().from(requests).where(eq(requests.id, requestId)).get();
  if (!request) return;
  const who = { id: request.id, name: request.name, email: request.email };
  const rows = db()
    .select()
    .from(appointments)
    .where(and(eq(appointments.requestId, requestId), ne(appointments.status, "CANCELLED")))
    .all();
  for (const row of rows) {
    if (row.provider === "builtin") {
      if (!confirmationQueued(row.id)) {
        queueConfirmation(row, who);
        queueReminder(row, who);
        queueBookingNotice(row, who, "booked");
      }
      announceAppointment("appointment.booked", row.id);
      // A held request's demo event is written only now (ADR 336).
      queueDemoEvents(row.id);
    } else if (row.status === HELD_STATUS) {
      await forwardHeld(row, request);
    }
  }
}

function confirmationQueued(appointmentId: number): boolean {
  return Boolean(
    db()
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.appointmentId, appointmentId),
          eq(mailOutbox.kind, "booking-confirmation"),
        ),
      )
      .get(),
  );
}

async function forwardHeld(
  row: typeof appointments.$inferSelect,
  request: typeof requests.$inferSelect,
) {
  const provider = scheduling();
  const configured =
    provider.name === "calcom" ? await configuredEventType(row.eventTypeKey) : null;
  const eventType = configured?.ok ? configured.value : null;
  const booked = eventType
    ? await provider.book({
        requestId: request.id,
        start: row.startTime.toISOString(),
        eventType,
        attendee: {
          name: request.name,
          email: request.email,
          phone: request.phone,
          timeZone: "Europe/Berlin",
        },
      })
    : null;
  if (booked?.ok) {
    const booking = booked.value;
    db()
      .update(appointments)
      .set({
        externalUid: booking.uid,
        startTime: new Date(booking.start),
        status: booking.status,
        location: booking.location,
        url: booking.url,
        rawData: providerData(booking.raw),
        cachedAt: new Date(),
      })
      .where(eq(appointments.id, row.id))
      .run();
    announceAppointment("appointment.booked", row.id);
    return;
  }
  // The slot went to someone else at Cal.com (or Cal.com or its event type is gone): the held
  // booking ends; the released request stays, and the visitor can book again.
  db()
    .update(appointments)
    .set({ status: "CANCELLED", cachedAt: new Date() })
    .where(eq(appointments.id, row.id))
    .run();
  console.warn(
    "Gehaltener Termin konnte nicht an Cal.com weitergegeben werden:",
    booked?.error ?? "Cal.com oder die Terminart ist nicht mehr eingerichtet.",
  );
}
