import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import { addDays, berlinToday, dayBoundsUtc, type IsoDay } from "~/lib/booking-calendar";
import { formatDateTime } from "~/lib/format";
import { admins, calendarBusy, calendarEvents } from "~db/schema";
import type { JobPriority } from "../calendar-worker/calendar-worker.server";
import { type BusySpan, mergeSpans } from "../calendar-worker/job";
import { db } from "../platform/db.server";
import { busyTimes } from "./client.server";
import {
  accountOf,
  activeConnections,
  type Connection,
  markFailure,
  markOk,
} from "./connections.server";
import { syncSoon } from "./sync.server";

/**
 * Live free/busy (ADR 337): when a visitor opens a day, every connection with busy calendars is
 * asked for that day (with its neighbours, for buffers) — all in parallel within one budget of
 * LIVE_BUDGET_MS, an answer younger than FRESH_MS reused. What came back is kept per connection
 * and day in `calendar_busy`: a connection that fails keeps its last known busy times, and a day
 * it never answered for counts as busy all day — never silently "everything free".
 */
export const LIVE_BUDGET_MS = 3000;
export const FRESH_MS = 60_000;

/** The instants a day's busy times are asked for: the day before to the day after (buffers). */
export function busyWindow(day: IsoDay) {
  return { from: dayBoundsUtc(addDays(day, -1)).start, to: dayBoundsUtc(addDays(day, 1)).end };
}

/** Connections of active admins with at least one busy calendar. */
export function busyConnections(): Connection[] {
  return activeConnections().filter((c) => c.busyCalendars.length > 0);
}

/** The demos written into a connection's calendars (they never block their own slot). */
function ownEvents(connectionId: number) {
  return db()
    .select({
      uid: calendarEvents.uid,
      start: calendarEvents.startTime,
      end: calendarEvents.endTime,
    })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.connectionId, connectionId), isNotNull(calendarEvents.startTime)))
    .all()
    .map((e) => ({ uid: e.uid, start: e.start?.getTime() ?? 0, end: e.end?.getTime() ?? 0 }));
}

const inFlight = new Map<string, Promise<boolean>>();

/** Asks one connection's busy calendars for one day; true when they all answered. */
async function fetchDay(
  connection: Connection,
  day: IsoDay,
  deadline: number,
  priority: JobPriority,
): Promise<boolean> {
  const account = accountOf(connection);
  if (!account) {
    markFailure(connection.id, {
      ok: false,
      kind: "auth",
      error: "App-Passwort nicht mehr lesbar (SESSION_SECRET geändert?)",
    });
    return false;
  }
  const { from, to } = busyWindow(day);
  const own = ownEvents(connection.id);
  const wanted = new Set(connection.busyCalendars);
  const calendars = connection.calendars.filter((c) => wanted.has(c.url));
  const answers = await Promise.all(
    calendars.map((calendar) => busyTimes(calendar, from, to, account, deadline, own, priority)),
  );
  const failed = answers.find((a) => !a.ok);
  if (failed && !failed.ok) {
    markFailure(connection.id, failed);
    return false;
  }
  const spans: BusySpan[] = [];
  let warning: string | null = null;
  for (const a of answers) {
    if (!a.ok) continue;
    spans.push(...a.spans);
    warning ??= a.warning;
  }
  const row = { busy: mergeSpans(spans), fetchedAt: new Date() };
  db()
    .insert(calendarBusy)
    .values({ connectionId: connection.id, day, ...row })
    .onConflictDoUpdate({ target: [calendarBusy.connectionId, calendarBusy.day], set: row })
    .run();
  if (warning) markFailure(connection.id, { ok: false, kind: "garbage", error: warning });
  else markOk(connection.id);
  return true;
}

export type LiveCheck = {
  /** Connections that could not answer now: their last known busy times count (or the whole day). */
  stale: { connectionId: number; adminId: number; fetchedAt: Date | null }[];
};

/**
 * Brings the busy times of `day` up to date for every busy connection (those fresher than
 * `maxAgeMs` excepted) within LIVE_BUDGET_MS; `maxAgeMs: 0` asks every calendar again (the
 * booking's check just before its writing transaction). The edits made in the demo calendars
 * are looked at soon after (the next slot check of the sync job).
 */
export async function refreshLiveBusy(
  day: IsoDay,
  options: { maxAgeMs?: number } = {},
): Promise<LiveCheck> {
  const maxAge = options.maxAgeMs ?? FRESH_MS;
  const connections = busyConnections();
  if (!connections.length) return { stale: [] };
  // Days gone by are of no use any more.
  db()
    .delete(calendarBusy)
    .where(lt(calendarBusy.day, addDays(berlinToday(), -2)))
    .run();
  const known = new Map(
    db()
      .select()
      .from(calendarBusy)
      .where(
        and(
          eq(calendarBusy.day, day),
          inArray(
            calendarBusy.connectionId,
            connections.map((c) => c.id),
          ),
        ),
      )
      .all()
      .map((r) => [r.connectionId, r.fetchedAt]),
  );
  const deadline = Date.now() + LIVE_BUDGET_MS;
  const results = await Promise.all(
    connections.map(async (c) => {
      const fetchedAt = known.get(c.id) ?? null;
      if (fetchedAt && Date.now() - fetchedAt.getTime() < maxAge) return true;
      const key = `${c.id}:${day}`;
      // A visitor's day shares an ask already under way; a booking's forced check asks anew.
      const running = maxAge > 0 ? inFlight.get(key) : undefined;
      if (running) return running;
      // In the calendar worker's queue (ADR 356) a visitor's look-up waits in its own small
      // share; a booking's forced check goes first.
      const priority = maxAge > 0 ? "lookup" : "booking";
      const asked = fetchDay(c, day, deadline, priority).finally(() => {
        if (inFlight.get(key) === asked) inFlight.delete(key);
      });
      if (maxAge > 0) inFlight.set(key, asked);
      syncSoon(c.id);
      return asked;
    }),
  );
  const stale = connections
    .filter((_, i) => !results[i])
    .map((c) => ({ connectionId: c.id, adminId: c.adminId, fetchedAt: known.get(c.id) ?? null }));
  return { stale };
}

/**
 * The busy intervals of each busy connection for `day` (the cache only, never the network): its
 * last known answer, or — when it never answered for this day — the whole window.
 */
export function busyOfDay(
  day: IsoDay,
): Map<number, { adminId: number; busy: { start: Date; end: Date }[] }> {
  const connections = busyConnections();
  const result = new Map<number, { adminId: number; busy: { start: Date; end: Date }[] }>();
  if (!connections.length) return result;
  const rows = new Map(
    db()
      .select()
      .from(calendarBusy)
      .where(eq(calendarBusy.day, day))
      .all()
      .map((r) => [r.connectionId, r.busy]),
  );
  const { from, to } = busyWindow(day);
  for (const c of connections) {
    const spans = rows.get(c.id) ?? [{ start: from.getTime(), end: to.getTime() }];
    result.set(c.id, {
      adminId: c.adminId,
      busy: spans.map((s) => ({ start: new Date(s.start), end: new Date(s.end) })),
    });
  }
  return result;
}

/**
 * The card's note for a booking made while a calendar could not answer (ADR 337): whose, and the
 * age of the busy times it was booked on; null when every calendar answered.
 */
export function staleCalendarNote(check: LiveCheck): string | null {
  if (!check.stale.length) return null;
  const names = check.stale.map(({ adminId, fetchedAt }) => {
    const admin = db()
      .select({ username: admins.username })
      .from(admins)
      .where(eq(admins.id, adminId))
      .get();
    const stand = fetchedAt
      ? `Stand ${formatDateTime(fetchedAt)} Uhr`
      : "kein Stand für diesen Tag";
    return `${admin?.username ?? `#${adminId}`} (${stand})`;
  });
  return `Beim Buchen nicht erreichbar: Kalender von ${names.join(", ")} – gebucht nach den zuletzt bekannten belegten Zeiten.`;
}
