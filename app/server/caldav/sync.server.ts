import { and, eq, isNotNull, lte } from "drizzle-orm";
import { calendarConnections, calendarEvents } from "~db/schema";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { outboxWorker } from "../platform/outbox-retry.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { CalendarUnread, eventTimesOf } from "./calendar-data";
import { changesSince, getEvent, sameResource } from "./client.server";
import { accountOf, type Connection, markFailure, markOk } from "./connections.server";

/**
 * Edits made in the calendar come back (ADR 336): every SYNC_INTERVAL_MS (a durable job: the next
 * run is a column of the connection) and on the next slot check, each demo calendar is asked what
 * changed — sync-collection (RFC 6578) with the stored token where offered (an invalid token: a
 * full resync), else a Depth-1 getetag listing. A demo event moved there is noted with its new
 * time, one deleted there as deleted; the card offers to move or cancel the booking properly.
 * Nothing here mails anybody.
 */
export const SYNC_INTERVAL_MS = 5 * 60_000;
/** A slot check asks for a sync when the last one is older than this. */
const SOON_MS = 60_000;

const worker = outboxWorker({ label: "Kalender-Abgleich", sendDue: syncDue });

/** One demo calendar: what changed since the last look, applied to the events written there. */
async function syncConnection(connection: Connection): Promise<boolean> {
  const calendar = connection.calendars.find((c) => c.url === connection.writeCalendar);
  if (!calendar) return true;
  const events = db()
    .select()
    .from(calendarEvents)
    .where(
      and(
        eq(calendarEvents.connectionId, connection.id),
        eq(calendarEvents.calendarUrl, calendar.url),
        eq(calendarEvents.present, true),
        eq(calendarEvents.status, "sent"),
        isNotNull(calendarEvents.href),
      ),
    )
    .all();
  const account = accountOf(connection);
  if (!account) return false;
  const deadline = Date.now() + env().WEBHOOK_TIMEOUT_MS;
  const changes = await changesSince(calendar, connection.syncToken, account, deadline);
  if (!changes.ok) {
    markFailure(connection.id, changes);
    return false;
  }
  const find = (href: string) => events.find((e) => e.href && sameResource(e.href, href));
  const deleted = (id: number) =>
    db()
      .update(calendarEvents)
      .set({ calendarChange: "deleted", changedStart: null, changedEnd: null })
      .where(eq(calendarEvents.id, id))
      .run();
  for (const href of changes.removed) {
    const event = find(href);
    if (event) deleted(event.id);
  }
  if (changes.complete) {
    for (const event of events)
      if (!changes.changed.some((c) => sameResource(c.href, event.href as string)))
        deleted(event.id);
  }
  let warning: string | null = null;
  for (const change of changes.changed) {
    const event = find(change.href);
    if (!event || (change.etag && change.etag === event.etag && !event.calendarChange)) continue;
    const current = await getEvent(event.href as string, account, deadline);
    if (!current.ok) {
      markFailure(connection.id, current);
      return false;
    }
    if (current.gone) {
      deleted(event.id);
      continue;
    }
    let times: Awaited<ReturnType<typeof eventTimesOf>> = null;
    try {
      // Read by the calendar worker (ADR 320), like every answer of a calendar server.
      times = await eventTimesOf(current.text);
    } catch (error) {
      // The worker did not read it (busy, time limit): the same changes are asked again next time,
      // so the sync token stays where it was.
      if (error instanceof CalendarUnread && error.reason !== "invalid") {
        markFailure(connection.id, { ok: false, kind: "garbage", error: error.message });
        return false;
      }
      warning = "Ein Demo-Termin im Kalender ist nicht lesbar (iCalendar).";
      continue;
    }
    if (!times) continue;
    const moved =
      times.start !== event.startTime?.getTime() || times.end !== event.endTime?.getTime();
    db()
      .update(calendarEvents)
      .set({
        etag: current.etag ?? change.etag,
        calendarChange: moved ? "moved" : null,
        changedStart: moved ? new Date(times.start) : null,
        changedEnd: moved ? new Date(times.end) : null,
      })
      .where(eq(calendarEvents.id, event.id))
      .run();
  }
  db()
    .update(calendarConnections)
    .set({ syncToken: changes.token })
    .where(eq(calendarConnections.id, connection.id))
    .run();
  if (warning) markFailure(connection.id, { ok: false, kind: "garbage", error: warning });
  else markOk(connection.id);
  return true;
}

async function syncDue(now: Date) {
  const due = db()
    .select()
    .from(calendarConnections)
    .where(
      and(isNotNull(calendarConnections.writeCalendar), lte(calendarConnections.nextSyncAt, now)),
    )
    .limit(10)
    .all();
  let sent = 0;
  for (const connection of due) {
    // Claimed first (durable): the next look is due one interval later, crash or not.
    db()
      .update(calendarConnections)
      .set({ nextSyncAt: new Date(now.getTime() + SYNC_INTERVAL_MS) })
      .where(eq(calendarConnections.id, connection.id))
      .run();
    if (await syncConnection(connection)) sent++;
  }
  return { attempted: due.length, sent };
}

/** On a slot check: a sync of the connection now, unless one ran within the last minute. */
export function syncSoon(connectionId: number) {
  const soon = new Date(Date.now() + SYNC_INTERVAL_MS - SOON_MS);
  const claimed = db()
    .update(calendarConnections)
    .set({ nextSyncAt: new Date() })
    .where(
      and(
        eq(calendarConnections.id, connectionId),
        isNotNull(calendarConnections.writeCalendar),
        lte(calendarConnections.nextSyncAt, soon),
      ),
    )
    .run().changes;
  if (claimed) worker.kick();
}

/** The background sync: looks for due demo calendars every minute. */
export const calendarSyncTask = {
  start: () => worker.start(60_000),
  stop: () => worker.stop(),
};

registerTestHooks({ drainCalendarSync: (now?: Date) => worker.drain(now) });
