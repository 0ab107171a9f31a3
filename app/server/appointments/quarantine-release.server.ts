import { and, eq, inArray, ne } from "drizzle-orm";
import { berlinDayOf } from "~/lib/booking-calendar";
import { appointments, mailOutbox, requests } from "~db/schema";
import { queueDemoEvents } from "../caldav/events.server";
import { refreshLiveBusy } from "../caldav/live-busy.server";
import { db } from "../platform/db.server";
import { announceAppointment, configuredEventType, HELD_STATUS } from "./appointments.server";
import { markGone, recheckHeldBuiltin } from "./held-bookings.server";
import { queueBookingNotice, queueConfirmation, queueReminder } from "./mails.server";
import { providerData } from "./provider-data.server";
import { scheduling } from "./scheduling/index.server";

/**
 * The release's second look at the bookings made while the request was held (ADR 355), before the
 * release mail is written: a built-in one keeps its slot when it is still free (checked again in
 * one transaction, the team's calendars asked live first), a Cal.com one is booked at Cal.com
 * now; one whose slot was taken meanwhile ends as `gone`. Answers whether any ended so — the
 * release mail then offers a new booking instead.
 */
export async function settleHeldBookings(requestId: number): Promise<{ gone: boolean }> {
  const request = db().select().from(requests).where(eq(requests.id, requestId)).get();
  if (!request) return { gone: false };
  const rows = db()
    .select()
    .from(appointments)
    .where(
      and(
        eq(appointments.requestId, requestId),
        ne(appointments.status, "CANCELLED"),
        inArray(appointments.heldBooking, ["holds", "waits"]),
      ),
    )
    .all();
  let gone = false;
  for (const row of rows) {
    if (row.provider === "builtin") {
      await refreshLiveBusy(berlinDayOf(row.startTime), { maxAgeMs: 0 });
      if (!recheckHeldBuiltin(row)) gone = true;
    } else if (row.status === HELD_STATUS && !(await forwardHeld(row, request))) gone = true;
  }
  return { gone };
}

/**
 * What a booking made while its request was quarantined still owes once the request is released:
 * a built-in booking its confirmation, reminder and admin notice (each once: a mail already in
 * the outbox for the appointment is not queued again) and its `appointment.booked` webhook (keyed
 * per appointment, so at most once); a held Cal.com booking was booked at Cal.com by
 * `settleHeldBookings` (Cal.com sends its own mails) and is announced now. Bookings whose slot was
 * gone are cancelled by then and owe nothing.
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
      // Still HELD: its second look failed (an error, logged by the caller); it holds no slot,
      // so it owes no confirmation yet (ADR 355).
      if (row.status === HELD_STATUS) continue;
      if (!confirmationQueued(row.id)) {
        queueConfirmation(row, who);
        queueReminder(row, who);
        queueBookingNotice(row, who, "booked");
      }
      announceAppointment("appointment.booked", row.id);
      // A held request's demo event is written only now (ADR 336).
      queueDemoEvents(row.id);
    } else {
      if (row.status === HELD_STATUS && !(await forwardHeld(row, request))) continue;
      if (row.heldBooking === "waits") announceAppointment("appointment.booked", row.id);
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

/** Books a held Cal.com booking at Cal.com; false when Cal.com refused (the row is then `gone`). */
async function forwardHeld(
  row: typeof appointments.$inferSelect,
  request: typeof requests.$inferSelect,
): Promise<boolean> {
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
    return true;
  }
  // The slot went to someone else at Cal.com (or Cal.com or its event type is gone): the held
  // booking ends as `gone` ("Termin nicht mehr frei", ADR 355); the released request stays, and
  // the release mail offers the visitor a new booking.
  markGone(row.id);
  console.warn(
    "Gehaltener Termin konnte nicht an Cal.com weitergegeben werden:",
    booked?.error ?? "Cal.com oder die Terminart ist nicht mehr eingerichtet.",
  );
  return false;
}
