import { and, eq, gt, inArray, lte, notInArray, sql } from "drizzle-orm";
import { HELD_STATUS } from "~/lib/appointment-status";
import type { AppointmentJson } from "~/lib/appointments";
import type { CalendarChange } from "~/lib/caldav";
import { formatRequestId } from "~/lib/format";
import { admins, appointments, calendarConnections, calendarEvents, requests } from "~db/schema";
import { videoLinkOf } from "../appointments/booking-settings.server";
import { INACTIVE_STATUSES } from "../appointments/one-per-request.server";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { afterFailure, outboxWorker } from "../platform/outbox-retry.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { demoEventText, teamEventBookingUid, teamEventUid } from "./calendar-data";
import { type DavAccount, deleteEvent, getEvent, putEvent } from "./client.server";
import {
  accountOf,
  activeConnections,
  connectionById,
  markFailure,
  markOk,
} from "./connections.server";
import type { DavFailure } from "./http.server";

/**
 * Demos written into the team's calendars (ADR 336): a durable outbox in SQLite. Every change of
 * a booking (booked, moved, cancelled, released from the quarantine, its video link) calls
 * `queueDemoEvents`, which sets the wanted state of one row per target calendar; the worker
 * brings each calendar there with retries — create with `If-None-Match: *` (a retry after a crash
 * finds its own UID and adopts it), move with `If-Match` and the next SEQUENCE (a 412 reads the
 * current state and writes again: the booking is the truth), delete. A deleted booking (erasure,
 * retention) is marked absent by trigger. The visitor is never ATTENDEE or ORGANIZER.
 */
type Appointment = typeof appointments.$inferSelect;
type EventRow = typeof calendarEvents.$inferSelect;

/** The calendars a booking belongs in: its host's demo calendar, or every admin's (the team). */
function targetsOf(appointment: Appointment | undefined): { connectionId: number; url: string }[] {
  if (appointment?.provider !== "builtin") return [];
  if (INACTIVE_STATUSES.includes(appointment.status)) return [];
  if (appointment.requestId) {
    const request = db()
      .select({ held: requests.quarantinedAt })
      .from(requests)
      .where(eq(requests.id, appointment.requestId))
      .get();
    // A held request's booking is written only on its release (ADR 252's quarantine).
    if (request?.held) return [];
  }
  const connections = activeConnections().filter((c) => c.writeCalendar);
  const chosen = appointment.hostAdminId
    ? connections.filter((c) => c.adminId === appointment.hostAdminId)
    : connections;
  const seen = new Set<string>();
  return chosen.flatMap((c) => {
    const url = c.writeCalendar as string;
    if (seen.has(url)) return [];
    seen.add(url);
    return [{ connectionId: c.id, url }];
  });
}

const worker = outboxWorker({ label: "Kalender (Demos)", sendDue: writeDue });

/** Sets the wanted state of a booking's demo events; the worker writes them (durable). */
export function queueDemoEvents(appointmentId: number) {
  const appointment = db()
    .select()
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
    .get();
  const targets = targetsOf(appointment);
  const rows = db()
    .select()
    .from(calendarEvents)
    .where(eq(calendarEvents.appointmentId, appointmentId))
    .all();
  const due = { status: "pending" as const, attempts: 0, nextAttemptAt: new Date() };
  for (const row of rows) {
    const present = targets.some(
      (t) => t.connectionId === row.connectionId && t.url === row.calendarUrl,
    );
    // An absent row that was never written has nothing to do.
    if (!present && !row.present && row.status === "sent") continue;
    db()
      .update(calendarEvents)
      .set({ present, ...due })
      .where(eq(calendarEvents.id, row.id))
      .run();
  }
  for (const t of targets) {
    if (rows.some((r) => r.connectionId === t.connectionId && r.calendarUrl === t.url)) continue;
    db()
      .insert(calendarEvents)
      .values({
        appointmentId,
        connectionId: t.connectionId,
        calendarUrl: t.url,
        uid: teamEventUid((appointment as Appointment).externalUid),
        present: true,
        ...due,
      })
      .onConflictDoNothing()
      .run();
  }
  worker.kick();
}

/** What a demo event says (no lead data unless the opt-in setting; ADR 336). */
function eventText(appointment: Appointment, sequence: number) {
  const base = env().APP_URL;
  const request = appointment.requestId
    ? db()
        .select({ id: requests.id, name: requests.name, email: requests.email })
        .from(requests)
        .where(eq(requests.id, appointment.requestId))
        .get()
    : undefined;
  const withName = getConfiguration().teamCalendar.leadNameInEvents && request?.email;
  const summary = request
    ? `Demo #${formatRequestId(request.id)}${withName ? ` – ${request.name.slice(0, 80)}` : ""}`
    : "Demo";
  const link = request
    ? `${base}/admin/requests?requestId=${request.id}`
    : `${base}/admin/appointments?filter=upcoming`;
  const video = videoLinkOf(appointment);
  const start = appointment.startTime.getTime();
  return {
    start,
    end: start + appointment.durationMinutes * 60_000,
    text: demoEventText({
      bookingUid: appointment.externalUid,
      sequence,
      start,
      end: start + appointment.durationMinutes * 60_000,
      summary,
      description: [`Anfrage im Anfrage-Portal: ${link}`, video ? `Videocall: ${video}` : ""]
        .filter(Boolean)
        .join("\n"),
      videoUrl: video,
      stamp: Date.now(),
    }),
  };
}

type Written = Partial<typeof calendarEvents.$inferInsert>;

/** Creates or updates one event; a 412 reads the calendar's version and writes over it. */
async function write(
  row: EventRow,
  appointment: Appointment,
  account: DavAccount,
  deadline: number,
): Promise<Written | DavFailure> {
  const href =
    row.href ??
    new URL(
      `${encodeURIComponent(teamEventBookingUid(appointment.externalUid))}.ics`,
      row.calendarUrl.endsWith("/") ? row.calendarUrl : `${row.calendarUrl}/`,
    ).toString();
  let sequence = row.href ? row.sequence + 1 : 0;
  let etag = row.href ? row.etag : null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const event = eventText(appointment, sequence);
    const put = await putEvent(href, event.text, etag, account, deadline);
    if (put.ok)
      return {
        href,
        etag: put.etag,
        sequence,
        startTime: new Date(event.start),
        endTime: new Date(event.end),
        calendarChange: null,
        changedStart: null,
        changedEnd: null,
      };
    if (put.kind !== "precondition") return put;
    // 412: created before (a retry after a crash: the same UID) or edited in the calendar.
    const current = await getEvent(href, account, deadline);
    if (!current.ok) return current;
    if (current.gone) {
      etag = null;
      sequence = 0;
      continue;
    }
    etag = current.etag;
    sequence += 1;
  }
  return {
    ok: false,
    kind: "http",
    error: "Der Termin wurde gleichzeitig im Kalender geändert (412).",
  };
}

/** One row toward its wanted state. */
async function apply(row: EventRow): Promise<Written | DavFailure | "gone"> {
  const connection = connectionById(row.connectionId);
  if (!connection) return "gone";
  const account = accountOf(connection);
  if (!account)
    return {
      ok: false,
      kind: "auth",
      error: "App-Passwort nicht mehr lesbar (SESSION_SECRET geändert?)",
    };
  const deadline = Date.now() + env().WEBHOOK_TIMEOUT_MS;
  const appointment = row.appointmentId
    ? db().select().from(appointments).where(eq(appointments.id, row.appointmentId)).get()
    : undefined;
  if (row.present && appointment) return write(row, appointment, account, deadline);
  if (!row.href) return { startTime: null, endTime: null };
  const removed = await deleteEvent(row.href, account, deadline);
  if (!removed.ok) return removed;
  return { href: null, etag: null, startTime: null, endTime: null, calendarChange: null };
}

async function writeDue(now: Date) {
  const due = db()
    .select()
    .from(calendarEvents)
    .where(and(eq(calendarEvents.status, "pending"), lte(calendarEvents.nextAttemptAt, now)))
    .limit(10)
    .all();
  let sent = 0;
  for (const row of due) {
    // Claimed first: a crash during the request leaves it due again later.
    db()
      .update(calendarEvents)
      .set({ nextAttemptAt: new Date(now.getTime() + 120_000) })
      .where(eq(calendarEvents.id, row.id))
      .run();
    const result = await apply(row);
    if (result === "gone") {
      db().delete(calendarEvents).where(eq(calendarEvents.id, row.id)).run();
      continue;
    }
    if ("ok" in result) {
      const next = afterFailure(row.attempts, now.getTime());
      db()
        .update(calendarEvents)
        .set({ ...next, lastError: result.error.slice(0, 200) })
        .where(eq(calendarEvents.id, row.id))
        .run();
      markFailure(row.connectionId, result);
      continue;
    }
    db()
      .update(calendarEvents)
      .set({ ...result, status: "sent", attempts: 0, lastError: null })
      .where(eq(calendarEvents.id, row.id))
      .run();
    markOk(row.connectionId);
    sent++;
  }
  return { attempted: due.length, sent };
}

/**
 * After a restart: upcoming bookings whose events were never queued (a crash between the booking
 * and its queueing) are queued now.
 */
function queueMissing() {
  const upcoming = db()
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.provider, "builtin"),
        notInArray(appointments.status, ["CANCELLED", HELD_STATUS]),
        gt(appointments.startTime, new Date()),
        // A held request's booking gets its event only at the release (ADRs 336, 355).
        sql`(${appointments.requestId} IS NULL OR ${appointments.requestId} NOT IN (SELECT id FROM ${requests} WHERE ${requests.quarantinedAt} IS NOT NULL))`,
      ),
    )
    .limit(500)
    .all()
    .map((r) => r.id);
  if (!upcoming.length) return;
  const queued = new Set(
    db()
      .select({ id: calendarEvents.appointmentId })
      .from(calendarEvents)
      .where(inArray(calendarEvents.appointmentId, upcoming))
      .all()
      .map((r) => r.id),
  );
  for (const id of upcoming) if (!queued.has(id)) queueDemoEvents(id);
}

/** The background writer: every 5 s, and right after a booking changed. */
export const demoEventTask = {
  start() {
    if (db().select({ id: calendarConnections.id }).from(calendarConnections).limit(1).get())
      queueMissing();
    worker.start(5000);
  },
  stop: () => worker.stop(),
};

registerTestHooks({ drainCalendarEvents: (now?: Date) => worker.drain(now) });

/** The appointment JSON's `calendar`: its host, the note of a stale check, a calendar edit. */
export function calendarInfoOf(row: Appointment): AppointmentJson["calendar"] {
  const host = row.hostAdminId
    ? (db()
        .select({ id: admins.id, username: admins.username })
        .from(admins)
        .where(eq(admins.id, row.hostAdminId))
        .get() ?? null)
    : null;
  return {
    host,
    note: row.calendarNote,
    change: row.provider === "builtin" ? calendarChangeOf(row.id) : null,
  };
}

/** What the appointment card shows of a booking's event: an edit made in the calendar. */
export function calendarChangeOf(appointmentId: number): CalendarChange {
  const row = db()
    .select()
    .from(calendarEvents)
    .where(and(eq(calendarEvents.appointmentId, appointmentId), eq(calendarEvents.present, true)))
    .all()
    .find((r) => r.calendarChange);
  if (!row?.calendarChange) return null;
  if (row.calendarChange === "deleted") return { kind: "deleted" };
  return {
    kind: "moved",
    start: (row.changedStart ?? new Date(0)).toISOString(),
    end: (row.changedEnd ?? new Date(0)).toISOString(),
  };
}
