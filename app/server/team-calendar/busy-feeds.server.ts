import { createHash } from "node:crypto";
import { eq, inArray, lte, notInArray } from "drizzle-orm";
import { BOOKING_TIME_ZONE } from "~/lib/booking-calendar";
import { busyWindowDays } from "~/lib/scheduling-settings";
import { type BusyFeed, type BusyFeedStatus, FEED_INCOMPLETE_PREFIX } from "~/lib/team-calendar";
import { busyFeedCache } from "~db/schema";
import { expandCalendar } from "../calendar-worker/calendar-worker.server";
import { type BusySpan, CALENDAR_LIMITS, mergeSpans } from "../calendar-worker/job";
import { getConfiguration, onConfigurationSaved } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { outboxWorker } from "../platform/outbox-retry.server";
import { failure, type Result } from "../platform/result.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { getChecked } from "../webhooks/http.server";
import { feedUrl, maskedFeedUrl } from "./config.server";

/**
 * The team's calendar (ADR 266): each configured ICS feed is fetched in the background every
 * 15 minutes (durable: the next fetch time is a column, so a restart resumes it) under the
 * webhooks' SSRF rules, at most 2 MB, no redirects, and expanded by the calendar worker off the
 * main thread (ADR 320). Only busy start/end times are stored; a feed that fails keeps its last
 * known busy times and reports the error (settings page, dashboard).
 */
export const FETCH_INTERVAL_MS = 15 * 60_000;
/** After a failure the next attempt comes sooner. */
export const RETRY_INTERVAL_MS = 5 * 60_000;
export const MAX_FEED_BYTES = 2 * 1024 * 1024;
/**
 * Busy times are kept from a day ago to the end of the booking horizon (an unlimited horizon:
 * the longest one, where slots end while feeds exist), plus two days for buffers and time zones.
 */
const DAY_MS = 86_400_000;
const PAST_MS = DAY_MS;
const futureMs = () => (busyWindowDays(getConfiguration().scheduling) + 2) * DAY_MS;

/**
 * The cache row of a feed: its id plus a digest of its stored (sealed) URL, so a changed URL
 * starts from an empty cache instead of the old calendar's busy times.
 */
export const cacheKey = (feed: BusyFeed) =>
  `${feed.id}:${createHash("sha256").update(feed.url).digest("hex").slice(0, 12)}`;

const configuredFeeds = () => getConfiguration().teamCalendar.busyFeeds;

/** Rows for new feeds (due now), none for removed or changed ones. */
function syncRows(feeds: BusyFeed[]) {
  const keys = feeds.map(cacheKey);
  db()
    .delete(busyFeedCache)
    .where(keys.length ? notInArray(busyFeedCache.feedId, keys) : undefined)
    .run();
  for (const key of keys)
    db()
      .insert(busyFeedCache)
      .values({ feedId: key, busy: [], nextFetchAt: new Date(0) })
      .onConflictDoNothing()
      .run();
}

/** One fetch: the busy spans of the feed, or why not. */
export async function fetchBusy(
  feed: BusyFeed,
  now = new Date(),
): Promise<Result<{ busy: BusySpan[]; warning: string | null }>> {
  const url = feedUrl(feed);
  if (url === null) return failure(500, "Adresse nicht entschlüsselbar (SESSION_SECRET geändert?)");
  const answer = await getChecked(url, MAX_FEED_BYTES);
  if (!answer.ok) return answer;
  const expanded = await expandCalendar({
    ics: answer.body,
    from: new Date(now.getTime() - PAST_MS).toISOString(),
    to: new Date(now.getTime() + futureMs()).toISOString(),
    floatingTimeZone: BOOKING_TIME_ZONE,
  });
  if (!expanded.ok)
    return failure(
      502,
      expanded.reason === "invalid"
        ? `Kein gültiger Kalender: ${expanded.message}`
        : expanded.message,
    );
  const { cutOff } = expanded;
  // A series too long to expand is reported (settings page, dashboard), never dropped silently.
  const warning = cutOff
    ? `${FEED_INCOMPLETE_PREFIX} ${cutOff === 1 ? "1 Serientermin hat" : `${cutOff} Serientermine haben`} mehr als ${CALENDAR_LIMITS.stepsPerEvent.toLocaleString("de-DE")} Wiederholungen und blockiert nur bis dahin`
    : null;
  return { ok: true, busy: expanded.busy, warning };
}

async function fetchDue(now: Date) {
  const feeds = configuredFeeds();
  syncRows(feeds);
  const byKey = new Map(feeds.map((f) => [cacheKey(f), f]));
  const due = db()
    .select()
    .from(busyFeedCache)
    .where(lte(busyFeedCache.nextFetchAt, now))
    .limit(10)
    .all();
  let sent = 0;
  for (const row of due) {
    const feed = byKey.get(row.feedId);
    // Claimed first: a crash during the fetch leaves the row due again after the interval.
    db()
      .update(busyFeedCache)
      .set({ nextFetchAt: new Date(now.getTime() + FETCH_INTERVAL_MS) })
      .where(eq(busyFeedCache.feedId, row.feedId))
      .run();
    if (!feed) continue;
    const result = await fetchBusy(feed, now);
    const checkedAt = new Date();
    db()
      .update(busyFeedCache)
      .set(
        result.ok
          ? { busy: result.busy, fetchedAt: checkedAt, checkedAt, lastError: result.warning }
          : {
              // The last known busy times stay.
              checkedAt,
              lastError: result.error,
              nextFetchAt: new Date(now.getTime() + RETRY_INTERVAL_MS),
            },
      )
      .where(eq(busyFeedCache.feedId, row.feedId))
      .run();
    if (result.ok) sent++;
    if (result.ok && result.warning)
      console.warn("Kalender des Teams: unvollständig:", feed.id, result.warning);
    if (!result.ok)
      console.warn("Kalender des Teams: Abruf fehlgeschlagen:", feed.id, result.error);
  }
  return { attempted: due.length, sent };
}

const worker = outboxWorker({ label: "Kalender des Teams", sendDue: fetchDue });

/** Background fetcher: looks for due feeds every minute (each feed is due every 15 minutes). */
export const busyFeedTask = {
  start: () => worker.start(60_000),
  stop: () => worker.stop(),
};

/** After the feed list was saved: every feed is fetched again right away. */
export function refreshBusyFeeds() {
  syncRows(configuredFeeds());
  db().update(busyFeedCache).set({ nextFetchAt: new Date() }).run();
  worker.kick();
}

// A changed feed list (settings form or PATCH /api/configuration) is fetched at once.
onConfigurationSaved((previous, next) => {
  const keys = (c: typeof next) => c.teamCalendar.busyFeeds.map(cacheKey).join(",");
  if (keys(previous) !== keys(next)) {
    syncRows(next.teamCalendar.busyFeeds);
    worker.kick();
  } else if (busyWindowDays(previous.scheduling) !== busyWindowDays(next.scheduling)) {
    // Another horizon: the busy times are imported again for the new window.
    refreshBusyFeeds();
  }
});

registerTestHooks({ drainBusyFeeds: (now?: Date) => worker.drain(now) });

/**
 * The team's busy intervals overlapping [from, to), merged and sorted: the `busy` input of the
 * availability function. Reads the cache only (never the network); removed feeds do not count.
 */
export function busyIntervals(from: Date, to: Date): { start: Date; end: Date }[] {
  const keys = configuredFeeds().map(cacheKey);
  if (!keys.length) return [];
  const lo = from.getTime();
  const hi = to.getTime();
  const spans = db()
    .select({ busy: busyFeedCache.busy })
    .from(busyFeedCache)
    .where(inArray(busyFeedCache.feedId, keys))
    .all()
    .flatMap((r) => r.busy)
    .filter((s) => s.end > lo && s.start < hi);
  return mergeSpans(spans).map((s) => ({ start: new Date(s.start), end: new Date(s.end) }));
}

/** Each configured feed's state: masked URL, age of its cache, last error, busy count. */
export function busyFeedStatuses(): BusyFeedStatus[] {
  const feeds = configuredFeeds();
  const rows = new Map(
    db()
      .select()
      .from(busyFeedCache)
      .all()
      .map((r) => [r.feedId, r]),
  );
  return feeds.map((feed) => {
    const row = rows.get(cacheKey(feed));
    return {
      id: feed.id,
      url: maskedFeedUrl(feed),
      fetchedAt: row?.fetchedAt?.toISOString() ?? null,
      checkedAt: row?.checkedAt?.toISOString() ?? null,
      lastError: row?.lastError ?? null,
      busyCount: row?.busy.length ?? 0,
    };
  });
}
