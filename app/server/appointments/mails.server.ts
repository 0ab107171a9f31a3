import { and, eq, inArray } from "drizzle-orm";
import { type CalendarMethod, calendarFile, calendarFileName } from "~/lib/calendar";
import { firstNameOf, visitorGreeting } from "~/lib/first-name";
import { formatDateTime, formatTime } from "~/lib/format";
import { mailSender } from "~/server/branding/branding.server";
import { type appointments, type MailAttachment, mailOutbox } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { notificationRecipients } from "../mail/notifications.server";
import { queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { requestLinkUrl } from "../requests/request-link.server";
import { bookingEnabled, videoLinkOf } from "./booking-settings.server";
import { queueInvitationWithinBudget } from "./invitation-budget.server";
import { manageUrl } from "./manage-link.server";
import { REMINDER_KIND } from "./reminder-check.server";

/**
 * The visitor's mails about a built-in booking (Cal.com sends its own): confirmation with the
 * invite, reminder 24 h before, rescheduling and cancellation, each with the .ics of the one
 * calendar module and (while the booking stands) the signed link to cancel or reschedule. They go
 * to a typed, unverified address: like the receipt they carry nothing the visitor typed but the
 * cleaned first name (ADR 328), so the portal relays no stranger's text.
 */
type AppointmentRow = typeof appointments.$inferSelect;
export type Attendee = { id: number; name: string; email: string };

export { REMINDER_KIND };

const REMINDER_BEFORE_MS = 24 * 3600_000;

const endOf = (row: AppointmentRow) =>
  new Date(row.startTime.getTime() + row.durationMinutes * 60_000);

/** The invite's organiser: the mails' sender (the brand's name unless MAIL_FROM names one). */
function organizer() {
  const { name, address } = mailSender();
  return { name, email: address };
}

function invite(row: AppointmentRow, who: Attendee, method: CalendarMethod): MailAttachment {
  const content = calendarFile({
    bookingUid: row.externalUid,
    sequence: row.sequence,
    start: row.startTime,
    end: endOf(row),
    stamp: new Date(),
    summary: row.eventTypeName,
    description: "Dein persönlicher Demo-Termin: Wir zeigen dir deine Testversion.",
    // The video room (ADR 267) is where the demo takes place: LOCATION and URL of the invite.
    location: videoLinkOf(row) ?? row.location,
    url: videoLinkOf(row) ?? row.url ?? env().APP_URL,
    cancelled: method === "CANCEL",
    organizer: organizer(),
    // The cleaned first name only: the invite goes to a typed, unverified address (ADR 328).
    attendee: { name: firstNameOf(who.name) || who.email, email: who.email },
    method,
  });
  return {
    filename: method === "CANCEL" ? "absage.ics" : calendarFileName(row.startTime),
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content,
    method,
  };
}

function facts(row: AppointmentRow, cancelled = false): [string, string][] {
  const video = cancelled ? null : videoLinkOf(row);
  return [
    ["Termin", row.eventTypeName],
    ["Datum", `${formatDateTime(row.startTime)} – ${formatTime(endOf(row))} Uhr`],
    ["Dauer", `${row.durationMinutes} Minuten`],
    ...(video ? [["Videocall", video] as [string, string]] : []),
  ];
}

/**
 * The sentence about the video call: the link when one is set, else where it will be — the
 * manage page linked below shows it as soon as it is set (a promise of a further mail could not be
 * kept: changing the fixed room mails nobody).
 */
const videoSentence = (row: AppointmentRow) => {
  const video = videoLinkOf(row);
  return video
    ? `Wir zeigen dir deine Testversion und besprechen die nächsten Schritte. Zum Videocall kommst du über diesen Link: ${video}`
    : "Wir zeigen dir deine Testversion und besprechen die nächsten Schritte. Den Link zum Videocall findest du, sobald er feststeht, über „Termin verwalten“ (Link unten).";
};

/** Why an updated invite goes out: a new time, or a new video link (ADR 267). */
export type InviteChange = "rescheduled" | "video";

const MANAGE_LABEL = "Termin absagen oder verschieben";

/**
 * Confirmation (new booking) or its update after a reschedule or a new video link: REQUEST invite
 * + manage link. The invitation of a new booking or a move goes to whatever address was typed: at
 * most one per address and hour, beyond it the mail waits (invitation-budget, ADR 255) — a bot can
 * book once and move the booking again and again. A move that replaces a still-held confirmation
 * stays the confirmation (the visitor never got the first). A new video link (an admin) goes at once.
 */
export function queueConfirmation(row: AppointmentRow, who: Attendee, change?: InviteChange) {
  const when = formatDateTime(row.startTime);
  const queue = (sendAfter?: Date, replaces?: string) => {
    const rescheduled = change === "rescheduled" && replaces !== "booking-confirmation";
    return queueMail({
      sendAfter,
      to: who.email,
      subject: rescheduled
        ? `Dein Demo-Termin wurde verschoben: ${when} Uhr`
        : change === "video"
          ? `Link zum Videocall für deinen Demo-Termin am ${when} Uhr`
          : `Dein Demo-Termin am ${when} Uhr`,
      kind: rescheduled
        ? "booking-rescheduled"
        : change === "video"
          ? "booking-updated"
          : "booking-confirmation",
      requestId: who.id,
      appointmentId: row.id,
      attachments: [invite(row, who, "REQUEST")],
      linksExpireAt: row.startTime,
      content: {
        greeting: visitorGreeting(who.name),
        paragraphs: [
          rescheduled
            ? "dein Demo-Termin wurde verschoben. Das ist dein neuer Termin:"
            : change === "video"
              ? videoLinkOf(row)
                ? "für deinen Demo-Termin steht jetzt der Link zum Videocall fest. Die aktualisierte Kalendereinladung hängt an dieser E-Mail."
                : "der bisherige Link zum Videocall für deinen Demo-Termin gilt nicht mehr."
              : "vielen Dank für deine Buchung! Dein persönlicher Demo-Termin steht:",
          videoSentence(row),
          "Die Kalendereinladung hängt an dieser E-Mail. Falls dir der Termin doch nicht passt, kannst du ihn über den Link unten absagen oder verschieben.",
        ],
        facts: facts(row),
        action: { label: MANAGE_LABEL, url: manageUrl(row) },
      },
    });
  };
  return change === "video" ? queue() : queueInvitationWithinBudget(who.email, queue).mail;
}

/**
 * The reminder as a durable outbox row due 24 h before the start (no timer in memory). A booking
 * made less than 24 h ahead gets none: its confirmation has just arrived.
 */
export function queueReminder(row: AppointmentRow, who: Attendee, now = Date.now()) {
  const sendAfter = new Date(row.startTime.getTime() - REMINDER_BEFORE_MS);
  if (sendAfter.getTime() <= now) return null;
  return queueMail({
    to: who.email,
    subject: `Erinnerung: Dein Demo-Termin morgen um ${formatTime(row.startTime)} Uhr`,
    kind: REMINDER_KIND,
    requestId: who.id,
    appointmentId: row.id,
    sendAfter,
    linksExpireAt: row.startTime,
    content: {
      greeting: visitorGreeting(who.name),
      paragraphs: [
        "morgen ist es so weit: Wir freuen uns auf deinen Demo-Termin.",
        ...(videoLinkOf(row)
          ? [`Zum Videocall kommst du über diesen Link: ${videoLinkOf(row)}`]
          : []),
        "Falls dir der Termin doch nicht passt, sag ihn bitte über den Link unten ab oder verschiebe ihn.",
      ],
      facts: facts(row),
      action: { label: MANAGE_LABEL, url: manageUrl(row) },
    },
  });
}

/** Drops the booking's reminder that has not gone out yet, pending or failed (cancelled or moved). */
export function dropReminder(appointmentId: number): number {
  return db()
    .delete(mailOutbox)
    .where(
      and(
        eq(mailOutbox.appointmentId, appointmentId),
        eq(mailOutbox.kind, REMINDER_KIND),
        inArray(mailOutbox.status, ["pending", "failed"]),
      ),
    )
    .run().changes;
}

/** The cancellation with a CANCEL invite (same UID, higher SEQUENCE) so calendars remove it. */
export function queueCancellation(row: AppointmentRow, who: Attendee) {
  queueMail({
    to: who.email,
    subject: `Dein Demo-Termin am ${formatDateTime(row.startTime)} Uhr wurde abgesagt`,
    kind: "booking-cancelled",
    requestId: who.id,
    appointmentId: row.id,
    attachments: [invite(row, who, "CANCEL")],
    content: {
      greeting: visitorGreeting(who.name),
      paragraphs: [
        "dein Demo-Termin wurde abgesagt. Der Eintrag in deinem Kalender wird mit der angehängten Absage entfernt.",
        "Wenn du später doch eine Demo möchtest, kannst du auf unserer Seite jederzeit einen neuen Termin buchen.",
      ],
      facts: facts(row, true),
      action: cancelledAction(who.id),
    },
  });
}

/** After a cancellation: the signed link that books again on any device (ADR 220), else home. */
function cancelledAction(requestId: number) {
  const url = bookingEnabled() ? requestLinkUrl(requestId, "termin") : requestLinkUrl(requestId);
  if (!url) return { label: "Zur Startseite", url: `${env().APP_URL}/#history` };
  return { label: bookingEnabled() ? "Neuen Termin buchen" : "Meine Anfrage ansehen", url };
}

export type BookingChange = "booked" | "rescheduled" | "cancelled";

/** Admins hear of bookings, moves and cancellations only with the booking-notice setting (default off). */
export function queueBookingNotice(row: AppointmentRow, who: Attendee, change: BookingChange) {
  if (!getConfiguration().emailNotifications.bookingNotice) return;
  const admins = notificationRecipients();
  if (!admins.length) return;
  const when = formatDateTime(row.startTime);
  const wording = {
    booked: [`Neuer Demo-Termin: ${who.name} am ${when} Uhr`, "hat einen Demo-Termin gebucht."],
    rescheduled: [
      `Demo-Termin verschoben: ${who.name}, neu am ${when} Uhr`,
      "hat den Demo-Termin verschoben.",
    ],
    cancelled: [
      `Demo-Termin abgesagt: ${who.name} am ${when} Uhr`,
      "hat den Demo-Termin abgesagt.",
    ],
  }[change] as [string, string];
  queueMail({
    to: admins,
    subject: wording[0],
    kind: "booking-notice",
    requestId: who.id,
    content: {
      paragraphs: [`${who.name} ${wording[1]}`],
      facts: [
        ["Termin", `${when} – ${formatTime(endOf(row))} Uhr`],
        ["E-Mail", who.email],
      ],
      action: {
        label: "Zur Anfrage",
        url: `${env().APP_URL}/admin/requests?requestId=${who.id}`,
      },
    },
  });
}
