import { TZDate } from "@date-fns/tz";
import { addWeeks, startOfWeek } from "date-fns";
import { and, count, desc, gte, lt, sql } from "drizzle-orm";
import { CONVERSION_WEEKS, type ConversionStats } from "~/lib/conversion";
import { appointments, requestStatusHistory, requests } from "~db/schema";
import { db } from "../db.server";

const TIME_ZONE = "Europe/Berlin";
/** Categories shown by name; the rest are summed up as "Andere" (label "…"). */
const TOP = 8;

/** Week starts (Monday 00:00 Berlin) of the last 12 weeks and the end of the current one. */
export function weekBounds(now: Date): Date[] {
  const current = startOfWeek(new TZDate(now.getTime(), TIME_ZONE), { weekStartsOn: 1 });
  return Array.from({ length: CONVERSION_WEEKS + 1 }, (_, i) =>
    addWeeks(current, i - CONVERSION_WEEKS + 1),
  ).map((d) => new Date(d.getTime()));
}

function grouped(
  column: typeof requests.attributionSource | typeof requests.affiliateCode,
  from: Date,
  to: Date,
) {
  const rows = db()
    .select({ label: column, count: count() })
    .from(requests)
    .where(and(gte(requests.createdAt, from), lt(requests.createdAt, to)))
    .groupBy(column)
    .orderBy(desc(count()), column)
    .all();
  if (rows.length <= TOP) return rows;
  const rest = rows.slice(TOP - 1).reduce((sum, r) => sum + r.count, 0);
  return [...rows.slice(0, TOP - 1), { label: "…", count: rest }];
}

/**
 * The conversion dashboard (issue 17) for the 12 weeks up to `now`: new requests per week, the
 * share that booked a demo, requests by source and by affiliate code, the median time to the first
 * status change (request_status_history). Every figure is one bounded, aggregated query.
 */
export function conversionStats(now = new Date()): ConversionStats {
  const bounds = weekBounds(now);
  const from = bounds[0];
  const to = bounds[bounds.length - 1];
  const inWindow = and(gte(requests.createdAt, from), lt(requests.createdAt, to));

  const perWeek = db()
    .select(
      Object.fromEntries(
        bounds
          .slice(0, -1)
          .map((start, i) => [
            `w${i}`,
            sql<number>`coalesce(sum(${requests.createdAt} >= ${start.getTime()} AND ${requests.createdAt} < ${bounds[i + 1].getTime()}), 0)`,
          ]),
      ),
    )
    .from(requests)
    .where(inWindow)
    .get() as Record<string, number> | undefined;

  const booked = sql`EXISTS (SELECT 1 FROM ${appointments} WHERE ${appointments.requestId} = ${requests.id} AND ${appointments.status} <> 'CANCELLED')`;
  const demo = db()
    .select({ total: count(), booked: sql<number>`coalesce(sum(${booked}), 0)` })
    .from(requests)
    .where(inWindow)
    .get();

  // Time to the first status change per request of the window; the median by offset.
  const firstChange = db()
    .select({
      ms: sql<number>`min(${requestStatusHistory.changedAt}) - ${requests.createdAt}`.as("ms"),
    })
    .from(requestStatusHistory)
    .innerJoin(requests, sql`${requests.id} = ${requestStatusHistory.requestId}`)
    .where(inWindow)
    .groupBy(requests.id)
    .as("first_change");
  const changed = db().select({ n: count() }).from(firstChange).get()?.n ?? 0;
  const median = changed
    ? db()
        .select({ ms: firstChange.ms })
        .from(firstChange)
        .orderBy(sql`ms`)
        .limit(changed % 2 ? 1 : 2)
        .offset(Math.floor((changed - 1) / 2))
        .all()
        .map((r) => Number(r.ms))
    : [];

  const total = demo?.total ?? 0;
  const bookedCount = Number(demo?.booked ?? 0);
  return {
    weeks: bounds.slice(0, -1).map((start, i) => ({
      start: start.toISOString(),
      count: Number(perWeek?.[`w${i}`] ?? 0),
    })),
    demo: { requests: total, booked: bookedCount, share: total ? bookedCount / total : 0 },
    bySource: grouped(requests.attributionSource, from, to),
    byAffiliate: grouped(requests.affiliateCode, from, to),
    firstChange: {
      medianMs: median.length ? median.reduce((a, b) => a + b, 0) / median.length : null,
      changed,
    },
  };
}
