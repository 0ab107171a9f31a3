import { and, asc, count, desc, eq, exists, isNotNull, not, type SQL, sql } from "drizzle-orm";
import type { RequestJson } from "~/lib/request-json";
import { ftsQuery, PAGE_SIZE, type RequestListQuery } from "~/lib/request-list";
import { admins, requestAssignees, requests } from "~db/schema";
import { db } from "../db.server";
import { countPendingInvitations } from "../invitations.server";
import { isQuarantined, notQuarantined } from "./quarantine.server";
import { loadRequestsJson, serializeRequests } from "./serialize.server";

export type RequestPage = {
  items: RequestJson[];
  total: number;
  page: number;
  totalPages: number;
  pageSize: number;
};

/** Requests assigned to anyone, or to one admin. */
function assignedCondition(adminId?: number) {
  const request = eq(requestAssignees.requestId, requests.id);
  return exists(
    db()
      .select({ one: sql`1` })
      .from(requestAssignees)
      .where(adminId ? and(request, eq(requestAssignees.adminId, adminId)) : request),
  );
}

/**
 * The WHERE of the request list for a query (tab, FTS5 search, status, assignment, source), shared by the
 * page and the CSV export; null when the search cannot match anything. `filters` is the same without
 * the search term (for queries that join the FTS5 hits themselves), `match` the FTS5 expression.
 */
export function requestListFilter(
  query: RequestListQuery,
  adminId: number,
): { condition: SQL | undefined; filters: SQL | undefined; match: string | null } | null {
  // "Prüfen" lists the quarantined requests (archived or not); every other tab leaves them out.
  const where: SQL[] =
    query.tab === "quarantine"
      ? [isQuarantined]
      : [eq(requests.archived, query.tab === "archived"), notQuarantined()];
  const assigned = assignedCondition();
  if (query.tab === "mine") where.push(assignedCondition(adminId));
  if (query.status) where.push(eq(requests.status, query.status));
  if (query.assignment === "assigned") where.push(assigned);
  if (query.assignment === "unassigned") where.push(not(assigned));
  if (query.source) where.push(eq(requests.attributionSource, query.source));
  const match = ftsQuery(query.q);
  if (query.q && !match) return null;
  const filters = and(...where);
  if (!match) return { condition: filters, filters, match: null };
  const hit = sql`${requests.id} IN (SELECT rowid FROM requests_fts WHERE requests_fts MATCH ${match})`;
  return { condition: and(filters, hit), filters, match };
}

/**
 * The FTS5 hits of `match` that pass `filters`, each checked in requests_search_filter_idx (id plus
 * every list filter column) instead of the table row: ranking and counting a broad term then
 * costs an index probe per hit, not a row read (ADR 175).
 */
const searchHits = (match: string, filters: SQL | undefined) =>
  sql`requests_fts CROSS JOIN ${requests} INDEXED BY requests_search_filter_idx
      ON ${requests.id} = requests_fts.rowid
      WHERE requests_fts MATCH ${match} AND ${filters ?? sql`1`}`;

export type RequestIdPage = Omit<RequestPage, "items"> & { ids: number[] };

/**
 * The ids of one page of the request list (tab, FTS5 search ranked, filters, sort, server-side
 * pagination) plus the counts; the callers load the row shape they need (full JSON or list item).
 */
export function listRequestIds(
  query: RequestListQuery,
  adminId: number,
  pageSize = PAGE_SIZE,
): RequestIdPage {
  const filter = requestListFilter(query, adminId);
  if (!filter) return { ids: [], total: 0, page: 1, totalPages: 1, pageSize };
  const { condition, filters, match } = filter;
  const paged = (total: number) => {
    const totalPages = Math.max(1, Math.ceil(total / pageSize));
    const page = Math.min(query.page, totalPages);
    return { total, page, totalPages, pageSize, offset: (page - 1) * pageSize };
  };
  if (query.sort === "relevance" && match) {
    const first = rankedSearchPage(match, filters, pageSize, (query.page - 1) * pageSize);
    if (first.ids.length || query.page === 1) {
      const { offset: _, ...page } = paged(first.total);
      return { ...page, ids: first.ids };
    }
    // Past the last page: count, then show the last page (rare; links never lead there).
    const { offset, ...page } = paged(searchCount(match, filters));
    return { ...page, ids: rankedSearchPage(match, filters, pageSize, offset).ids };
  }
  const { offset, ...page } = paged(
    match
      ? searchCount(match, filters)
      : (db().select({ n: count() }).from(requests).where(condition).get()?.n ?? 0),
  );
  // Only the id: the list indexes cover the filter and the order, so a deep page skips index
  // entries, not table rows.
  const ids = db()
    .select({ id: requests.id })
    .from(requests)
    .where(condition)
    .orderBy(...requestListOrder(query.sort))
    .limit(pageSize)
    .offset(offset)
    .all();
  return { ...page, ids: ids.map((r) => r.id) };
}

const searchCount = (match: string, filters: SQL | undefined) =>
  db().get<{ n: number }>(sql`SELECT count(*) AS n FROM ${searchHits(match, filters)}`)?.n ?? 0;

/**
 * One page of a ranked search and the number of hits, from one pass over the FTS5 hits that pass
 * the filters (ADR 190): they are kept (id, rank, time) in a materialised CTE, counted there and
 * top-N sorted by rank, then newest (bm25 is computed once per hit, the index probed once).
 */
function rankedSearchPage(
  match: string,
  filters: SQL | undefined,
  limit: number,
  offset: number,
): { ids: number[]; total: number } {
  const rows = db().all<{ id: number; total: number }>(
    sql`WITH hits AS MATERIALIZED (
          SELECT requests_fts.rowid AS id, requests_fts.rank AS rank, ${requests.createdAt} AS created
          FROM ${searchHits(match, filters)})
        SELECT id, (SELECT count(*) FROM hits) AS total FROM hits
        ORDER BY rank, created DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return { ids: rows.map((r) => r.id), total: rows[0]?.total ?? 0 };
}

/** One page of the request list in the spec's Request JSON shape. */
export function listRequests(
  query: RequestListQuery,
  adminId: number,
  pageSize = PAGE_SIZE,
): RequestPage {
  const { ids, ...page } = listRequestIds(query, adminId, pageSize);
  return { ...page, items: loadRequestsJson(ids) };
}

/** ORDER BY of the list (relevance without a search falls back to newest first). */
export function requestListOrder(sort: RequestListQuery["sort"]): SQL[] {
  return {
    newest: [desc(requests.createdAt), desc(requests.id)],
    oldest: [asc(requests.createdAt), asc(requests.id)],
    "id-desc": [desc(requests.id)],
    "id-asc": [asc(requests.id)],
    relevance: [desc(requests.createdAt), desc(requests.id)],
  }[sort];
}

/**
 * All requests of a tab (the spec's unpaginated list calls), newest first, capped; without the
 * quarantined ones, or (`quarantined: true`) only those.
 */
export function listAllRequests(options: {
  archived: boolean;
  quarantined?: boolean;
  assignedTo?: number;
  /** utm_source (attribution) */
  source?: string;
  limit?: number;
}) {
  const where: SQL[] = options.quarantined
    ? [isQuarantined]
    : [eq(requests.archived, options.archived), notQuarantined()];
  if (options.assignedTo) where.push(assignedCondition(options.assignedTo));
  if (options.source) where.push(eq(requests.attributionSource, options.source));
  const rows = db()
    .select()
    .from(requests)
    .where(and(...where))
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(options.limit ?? 1000)
    .all();
  return serializeRequests(rows);
}

let sources: { key: string; limit: number; value: string[] } | null = null;

/**
 * The utm sources requests came with (the list's source filter), most frequent first, capped.
 * Grouping walks an index over every request (≈ 2.5 ms at 100k), so the answer is kept until the
 * database changes: `total_changes()` (this connection's writes) and `PRAGMA data_version` (another
 * connection's commits) both stay put only while no row was written (ADR 190).
 */
export function listAttributionSources(limit = 50): string[] {
  const client = db().$client;
  const key = `${client.pragma("data_version", { simple: true })}:${
    (client.prepare("SELECT total_changes()").pluck().get() as number) ?? 0
  }`;
  if (sources?.key === key && sources.limit === limit) return sources.value;
  const value = db()
    .select({ source: requests.attributionSource, n: count() })
    .from(requests)
    .where(and(isNotNull(requests.attributionSource), notQuarantined()))
    .groupBy(requests.attributionSource)
    .orderBy(desc(count()), asc(requests.attributionSource))
    .limit(limit)
    .all()
    .map((r) => r.source as string);
  sources = { key, limit, value };
  return value;
}

export type DashboardStats = {
  totalRequests: number;
  newRequests: number;
  activeRequests: number;
  archivedRequests: number;
  admins: number;
  activeAdmins: number;
  pendingInvitations: number;
};

/** The dashboard's figures (also GET /api/admin/stats), without the quarantined requests. */
export function getStats(): DashboardStats {
  // Three index counts (the New ones and the archived ones are ranges of requests_status_idx and
  // requests_archived_created_idx) instead of one pass over every row with CASE per row, each
  // less the same count over the quarantine (read through its small partial index).
  const r = db().get<{ total: number; fresh: number; archived: number }>(
    sql`SELECT (SELECT count(*) FROM ${requests}) - q.total AS total,
      (SELECT count(*) FROM ${requests} WHERE ${requests.archived} = 0 AND ${requests.status} = 'New') - q.fresh AS fresh,
      (SELECT count(*) FROM ${requests} WHERE ${requests.archived} = 1) - q.archived AS archived
      FROM (SELECT count(*) AS total,
          coalesce(sum(${requests.archived} = 0 AND ${requests.status} = 'New'), 0) AS fresh,
          coalesce(sum(${requests.archived} = 1), 0) AS archived
        FROM ${requests} WHERE ${isQuarantined}) AS q`,
  );
  const a = db()
    .select({ total: count(), active: sql<number>`coalesce(sum(${admins.isActive}), 0)` })
    .from(admins)
    .get();
  return {
    totalRequests: r?.total ?? 0,
    newRequests: Number(r?.fresh ?? 0),
    activeRequests: (r?.total ?? 0) - Number(r?.archived ?? 0),
    archivedRequests: Number(r?.archived ?? 0),
    admins: a?.total ?? 0,
    activeAdmins: Number(a?.active ?? 0),
    pendingInvitations: countPendingInvitations(),
  };
}

/** The 10 newest non-archived requests, newest first. */
export function latestRequests(limit = 10): RequestJson[] {
  const rows = db()
    .select()
    .from(requests)
    .where(and(eq(requests.archived, false), notQuarantined()))
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(limit)
    .all();
  return serializeRequests(rows);
}
