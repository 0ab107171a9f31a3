import { and, eq, type SQL, sql } from "drizzle-orm";
import type { RequestListQuery } from "~/lib/request-list";
import { changeCounters, requestCounts } from "~db/schema";
import { db } from "../platform/db.server";

/**
 * Exact request counts without counting rows (ADR 275): request_counts holds one row per
 * (archived, quarantined, status, bucket), kept by the triggers of migration 0019 — bucket 0 every
 * request, -1 the ones assigned to anyone, an admin's id the ones assigned to them. A count is a
 * sum over a handful of those rows (a few per status), whatever the size of the table.
 */

type Slice = { archived?: boolean; quarantined: boolean; status?: string; bucket: number };

function sum(slice: Slice): number {
  const where: SQL[] = [
    eq(requestCounts.quarantined, slice.quarantined ? 1 : 0),
    eq(requestCounts.bucket, slice.bucket),
  ];
  if (slice.archived !== undefined) where.push(eq(requestCounts.archived, slice.archived ? 1 : 0));
  if (slice.status) where.push(eq(requestCounts.status, slice.status));
  const row = db()
    .select({ n: sql<number>`coalesce(sum(${requestCounts.n}), 0)` })
    .from(requestCounts)
    .where(and(...where))
    .get();
  return Number(row?.n ?? 0);
}

/** Requests assigned to the admin in a status, neither archived nor held (the digest's "Neu"). */
export function countAssigned(adminId: number, status: string): number {
  return sum({ quarantined: false, archived: false, status, bucket: adminId });
}

/**
 * The list's total for a query without search and source filter (those count their index range):
 * tab (quarantine included), status and assignment, exact. undefined when the query needs a count
 * of rows instead.
 */
export function countListBucket(query: RequestListQuery, adminId: number): number | undefined {
  if (query.q || query.source || query.stage || query.promise) return undefined;
  const base: Omit<Slice, "bucket"> =
    query.tab === "quarantine"
      ? { quarantined: true }
      : { quarantined: false, archived: query.tab === "archived" };
  const status = query.status || undefined;
  if (query.tab === "mine") {
    // Mine is assigned by definition: "unassigned" leaves nothing.
    if (query.assignment === "unassigned") return 0;
    return sum({ ...base, status, bucket: adminId });
  }
  if (query.assignment === "assigned") return sum({ ...base, status, bucket: -1 });
  const all = sum({ ...base, status, bucket: 0 });
  return query.assignment === "unassigned" ? all - sum({ ...base, status, bucket: -1 }) : all;
}

/** Requests waiting in the spam quarantine ("Prüfen (n)"), archived or not. */
export const countQuarantinedRequests = () => sum({ quarantined: true, bucket: 0 });

/** The dashboard's request figures, without the quarantined requests. */
export function countDashboardRequests() {
  const rows = db()
    .select({
      archived: requestCounts.archived,
      status: requestCounts.status,
      n: requestCounts.n,
    })
    .from(requestCounts)
    .where(and(eq(requestCounts.quarantined, 0), eq(requestCounts.bucket, 0)))
    .all();
  let total = 0;
  let fresh = 0;
  let archived = 0;
  for (const row of rows) {
    total += row.n;
    if (row.archived) archived += row.n;
    else if (row.status === "New") fresh += row.n;
  }
  return { total, fresh, archived };
}

/** Every stored request, quarantined ones included (/metrics). */
export const countStoredRequests = () =>
  sum({ quarantined: false, bucket: 0 }) + sum({ quarantined: true, bucket: 0 });

/**
 * The `dashboard` change counter (migration 0019): bumped by triggers whenever a request is
 * inserted or deleted, or its time, source, referrer, affiliate code, first status change or
 * quarantine changes, or an appointment is written — by any process. Caches of figures over those
 * columns are keyed by it (one primary-key read).
 */
export const dashboardVersion = (): number =>
  db()
    .select({ n: changeCounters.n })
    .from(changeCounters)
    .where(eq(changeCounters.name, "dashboard"))
    .get()?.n ?? 0;
