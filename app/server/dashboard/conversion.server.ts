import { TZDate } from "@date-fns/tz";
import { addWeeks, startOfWeek } from "date-fns";
import { and, gte, lt, sql } from "drizzle-orm";
import { CONVERSION_WEEKS, type ConversionStats } from "~/lib/conversion";
import { appointments, channelOf, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { dashboardVersion } from "../requests/counts.server";
import { notQuarantined } from "../requests/quarantine.server";

/** Every figure leaves the spam quarantine out; the index stays covering (ADR 252). */
const COUNTED = notQuarantined();

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

const CHANNEL = channelOf(requests.attributionSource, requests.attributionReferrer);

function grouped(by: "channel" | "affiliate", from: Date, to: Date) {
  // Walks requests_channel_created_idx / requests_affiliate_created_idx in key order: grouping
  // needs no temporary b-tree, and no row is read (ADR 175). The channel is utm_source, else the
  // referrer's host (as the request list shows it), so a lead from Google is not "Direkt".
  const [column, index] =
    by === "affiliate"
      ? [sql`${requests.affiliateCode}`, sql.raw("requests_affiliate_created_idx")]
      : [CHANNEL, sql.raw("requests_channel_created_idx")];
  const rows = db()
    .all<{ label: string | null; count: number }>(
      sql`SELECT ${column} AS label, count(*) AS count FROM ${requests} INDEXED BY ${index}
          WHERE ${requests.createdAt} >= ${from.getTime()} AND ${requests.createdAt} < ${to.getTime()}
            AND ${COUNTED}
          GROUP BY ${column} ORDER BY count(*) DESC, ${column}`,
    )
    .map((r) => ({ label: r.label, count: Number(r.count) }));
  if (rows.length <= TOP) return rows;
  const rest = rows.slice(TOP - 1).reduce((sum, r) => sum + r.count, 0);
  return [...rows.slice(0, TOP - 1), { label: "…", count: rest }];
}

/** Requests created in [from, to) with a status change: their number and the median delay. */
function firstChangeStats(from: Date, to: Date) {
  // first_status_change_at is kept by a trigger (migration 0010); requests_first_change_idx is
  // ordered by the delay, so the median is an offset into the index, not a sort per query.
  const delay = sql`(${requests.firstStatusChangeAt} - ${requests.createdAt})`;
  const inWindow = and(
    sql`${delay} IS NOT NULL`,
    gte(requests.createdAt, from),
    lt(requests.createdAt, to),
    COUNTED,
  );
  const changed =
    db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM ${requests} INDEXED BY requests_first_change_idx WHERE ${inWindow}`,
    )?.n ?? 0;
  const median = changed
    ? db()
        .all<{ ms: number }>(
          sql`SELECT ${delay} AS ms FROM ${requests} INDEXED BY requests_first_change_idx
              WHERE ${inWindow} ORDER BY ${delay}
              LIMIT ${changed % 2 ? 1 : 2} OFFSET ${Math.floor((changed - 1) / 2)}`,
        )
        .map((r) => Number(r.ms))
    : [];
  return { changed, median };
}

/**
 * The conversion dashboard (ADR 147) for the 12 weeks up to `now`: new requests per week, the
 * share that booked a demo, requests by source and by affiliate code, the median time to the first
 * status change (request_status_history). Every figure is one bounded, aggregated query over an
 * index (ADR 175): no query reads a request row per request of the window.
 */
export function conversionStats(now = new Date()): ConversionStats {
  const bounds = weekBounds(now);
  // Cached until a write changes a figure (trigger-kept change counter, any process; ADR 275)
  // or the week turns: the walks below cost ~0.3 s at a million requests.
  const key = `${dashboardVersion()}:${bounds[0].getTime()}`;
  if (cached?.key === key && cached.db === db()) return cached.value;
  const value = computeConversionStats(bounds);
  cached = { db: db(), key, value };
  return value;
}

let cached: { db: unknown; key: string; value: ConversionStats } | undefined;

function computeConversionStats(bounds: Date[]): ConversionStats {
  const from = bounds[0];
  const to = bounds[bounds.length - 1];

  // One range count per week on requests_created_idx.
  const perWeek = db().get<Record<string, number>>(
    sql.join(
      [
        sql`SELECT`,
        sql.join(
          bounds
            .slice(0, -1)
            .map(
              (start, i) =>
                sql`(SELECT count(*) FROM ${requests} WHERE ${requests.createdAt} >= ${start.getTime()} AND ${requests.createdAt} < ${bounds[i + 1].getTime()} AND ${COUNTED}) AS ${sql.identifier(`w${i}`)}`,
            ),
          sql`, `,
        ),
      ],
      sql` `,
    ),
  );
  const weeks = bounds.slice(0, -1).map((start, i) => ({
    start: start.toISOString(),
    count: Number(perWeek?.[`w${i}`] ?? 0),
  }));

  // Booked demos: driven from the appointments (far fewer than requests), each request counted once.
  const booked =
    db().get<{ n: number }>(
      sql`SELECT count(DISTINCT ${appointments.requestId}) AS n FROM ${appointments}
          CROSS JOIN ${requests} INDEXED BY requests_search_filter_idx ON ${requests.id} = ${appointments.requestId}
          WHERE ${appointments.status} <> 'CANCELLED'
            AND ${requests.createdAt} >= ${from.getTime()} AND ${requests.createdAt} < ${to.getTime()}
            AND ${COUNTED}`,
    )?.n ?? 0;
  const { changed, median } = firstChangeStats(from, to);

  const total = weeks.reduce((sum, w) => sum + w.count, 0);
  const bookedCount = Number(booked);
  return {
    weeks,
    demo: { requests: total, booked: bookedCount, share: total ? bookedCount / total : 0 },
    bySource: grouped("channel", from, to),
    byAffiliate: grouped("affiliate", from, to),
    firstChange: {
      medianMs: median.length ? median.reduce((a, b) => a + b, 0) / median.length : null,
      changed,
    },
  };
}
