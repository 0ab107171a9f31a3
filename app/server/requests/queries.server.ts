import { and, asc, count, desc, eq, exists, isNotNull, not, type SQL, sql } from "drizzle-orm";
import type { PromiseFilter } from "~/lib/promises";
import type { RequestJson } from "~/lib/request-json";
import { ftsQuery, PAGE_SIZE, type RequestListQuery, SEARCH_RESULT_CAP } from "~/lib/request-list";
import { admins, requestAssignees, requests } from "~db/schema";
import { countAwaitingActivation } from "../accounts/activation.server";
import { countPendingInvitations } from "../accounts/invitations.server";
import { promiseFilterCondition } from "../pipeline/promises.server";
import { db } from "../platform/db.server";
import {
  countDashboardRequests,
  countListBucket,
  countQuarantinedRequests,
  dashboardVersion,
} from "./counts.server";
import { isQuarantined, notQuarantined } from "./quarantine.server";
import { loadRequestsJson, serializeRequests } from "./serialize.server";

export type RequestPage = {
  items: RequestJson[];
  /** Exact, except for a search with more than SEARCH_RESULT_CAP hits (then totalIsCapped). */
  total: number;
  /** A search found more than SEARCH_RESULT_CAP hits: only the first ones are listed and counted. */
  totalIsCapped: boolean;
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
  if (query.stage) where.push(eq(requests.stage, query.stage));
  if (query.promise) where.push(promiseFilterCondition(query.promise));
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
export const searchHits = (match: string, filters: SQL | undefined) =>
  sql`requests_fts CROSS JOIN ${requests} INDEXED BY requests_search_filter_idx
      ON ${requests.id} = requests_fts.rowid
      WHERE requests_fts MATCH ${match} AND ${filters ?? sql`1`}`;

export type RequestIdPage = Omit<RequestPage, "items"> & { ids: number[] };

/**
 * The ids of one page of the request list (tab, FTS5 search ranked, filters, sort, server-side
 * pagination) plus the counts; the callers load the row shape they need (full JSON or list item).
 * Without a search the total comes from the trigger-kept counts (ADR 275); a search works on at
 * most SEARCH_RESULT_CAP hits.
 */
export function listRequestIds(
  query: RequestListQuery,
  adminId: number,
  pageSize = PAGE_SIZE,
): RequestIdPage {
  const filter = requestListFilter(query, adminId);
  if (!filter) {
    return { ids: [], total: 0, totalIsCapped: false, page: 1, totalPages: 1, pageSize };
  }
  const { condition, filters, match } = filter;
  const paged = (total: number) => {
    const totalPages = Math.max(1, Math.ceil(total / pageSize));
    const page = Math.min(query.page, totalPages);
    return { total, page, totalPages, pageSize, offset: (page - 1) * pageSize };
  };
  if (match) return searchPage(query, match, filters, paged);
  const { offset, ...page } = paged(
    countListBucket(query, adminId) ??
      db().select({ n: count() }).from(requests).where(condition).get()?.n ??
      0,
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
  return { ...page, totalIsCapped: false, ids: ids.map((r) => r.id) };
}

/**
 * One page of a search (ADR 276): the candidates are the first SEARCH_RESULT_CAP FTS5
 * hits that pass the filters, in id order (newest first, or oldest first for the ascending sorts),
 * read straight from FTS5's doclist order and stopped one past the cap (to know there are more);
 * they are counted and sorted —
 * by bm25 (computed only for them), then newest, for "Relevanz". A broad term thus costs the
 * cap, not its number of hits; more hits than the cap are reported as "mehr als N Treffer".
 */
function searchPage(
  query: RequestListQuery,
  match: string,
  filters: SQL | undefined,
  paged: (total: number) => {
    total: number;
    page: number;
    totalPages: number;
    pageSize: number;
    offset: number;
  },
): RequestIdPage {
  const ascending = query.sort === "oldest" || query.sort === "id-asc";
  const relevance = query.sort === "relevance";
  const order = {
    relevance: sql`rank, created DESC, id DESC`,
    newest: sql`created DESC, id DESC`,
    oldest: sql`created, id`,
    "id-desc": sql`id DESC`,
    "id-asc": sql`id`,
  }[query.sort];
  const page = (limit: number, offset: number) =>
    db().all<{ id: number; total: number }>(
      sql`WITH hits AS MATERIALIZED (
            SELECT requests_fts.rowid AS id, ${relevance ? sql`requests_fts.rank` : sql`0`} AS rank,
              ${requests.createdAt} AS created
            FROM ${searchHits(match, filters)}
            ORDER BY requests_fts.rowid ${ascending ? sql`ASC` : sql`DESC`}
            LIMIT ${SEARCH_RESULT_CAP + 1})
          SELECT id, (SELECT count(*) FROM hits) AS total
          FROM (SELECT * FROM hits LIMIT ${SEARCH_RESULT_CAP})
          ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
    );
  const { pageSize } = paged(0);
  let rows = page(pageSize, (query.page - 1) * pageSize);
  // Past the last page (links never lead there): count the candidates, then show the last page.
  const total =
    rows[0]?.total ??
    db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${searchHits(match, filters)} LIMIT ${SEARCH_RESULT_CAP + 1})`,
    )?.n ??
    0;
  const totalIsCapped = total > SEARCH_RESULT_CAP;
  const { offset, ...counted } = paged(Math.min(total, SEARCH_RESULT_CAP));
  if (offset !== (query.page - 1) * pageSize) rows = page(pageSize, offset);
  return { ...counted, totalIsCapped, ids: rows.map((r) => r.id) };
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

export type AllRequestsOptions = {
  archived: boolean;
  quarantined?: boolean;
  assignedTo?: number;
  /** utm_source (attribution) */
  source?: string;
  /** A pipeline stage id (ADR 345). */
  stage?: string;
  /** An open promise due today or past due (ADR 346). */
  promise?: PromiseFilter;
  limit?: number;
};

/**
 * The ids of all requests of a tab (the spec's unpaginated list calls), newest first, capped;
 * without the quarantined ones, or (`quarantined: true`) only those.
 */
export function listAllRequestIds(options: AllRequestsOptions): number[] {
  const where: SQL[] = options.quarantined
    ? [isQuarantined]
    : [eq(requests.archived, options.archived), notQuarantined()];
  if (options.assignedTo) where.push(assignedCondition(options.assignedTo));
  if (options.source) where.push(eq(requests.attributionSource, options.source));
  if (options.stage) where.push(eq(requests.stage, options.stage));
  if (options.promise) where.push(promiseFilterCondition(options.promise));
  return db()
    .select({ id: requests.id })
    .from(requests)
    .where(and(...where))
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(options.limit ?? 1000)
    .all()
    .map((r) => r.id);
}

/** The requests of `listAllRequestIds` in the spec's Request JSON shape. */
export function listAllRequests(options: AllRequestsOptions): RequestJson[] {
  return loadRequestsJson(listAllRequestIds(options));
}

let sources: { db: unknown; key: number; limit: number; value: string[] } | null = null;

/**
 * The utm sources requests came with (the list's source filter), most frequent first, capped.
 * Grouping walks the sources' part of an index (≈ 2.5 ms at 100k), so the answer is kept until a
 * request is added, removed, or its source or quarantine changes: the trigger-kept change counter
 * (ADR 275) sees every process's writes, and other writes (sessions, rate limits) keep the cache.
 */
export function listAttributionSources(limit = 50): string[] {
  const key = dashboardVersion();
  if (sources?.key === key && sources.limit === limit && sources.db === db()) return sources.value;
  const value = db()
    .select({ source: requests.attributionSource, n: count() })
    .from(requests)
    .where(and(isNotNull(requests.attributionSource), notQuarantined()))
    .groupBy(requests.attributionSource)
    .orderBy(desc(count()), asc(requests.attributionSource))
    .limit(limit)
    .all()
    .map((r) => r.source as string);
  sources = { db: db(), key, limit, value };
  return value;
}

export type DashboardStats = {
  totalRequests: number;
  newRequests: number;
  activeRequests: number;
  archivedRequests: number;
  /** Held in the spam quarantine ("Zur Prüfung", ADR 327): counted here, in none of the others. */
  quarantinedRequests: number;
  /** Every admin account, as "Benutzer" lists them: active, deactivated and awaiting activation. */
  admins: number;
  activeAdmins: number;
  /** Registered from an invitation, never active yet (awaitsActivation, ADR 358). */
  awaitingActivation: number;
  pendingInvitations: number;
};

/**
 * The dashboard's figures (also GET /api/admin/stats): the request counts without the quarantined
 * requests, which are counted on their own (`quarantinedRequests`).
 */
export function getStats(): DashboardStats {
  // From the trigger-kept counts (ADR 275): a few rows, not an index walk.
  const r = countDashboardRequests();
  const a = db()
    .select({
      total: count(),
      active: sql<number>`coalesce(sum(${admins.isActive}), 0)`,
    })
    .from(admins)
    .get();
  return {
    totalRequests: r.total,
    newRequests: r.fresh,
    activeRequests: r.total - r.archived,
    archivedRequests: r.archived,
    quarantinedRequests: countQuarantinedRequests(),
    admins: a?.total ?? 0,
    activeAdmins: Number(a?.active ?? 0),
    awaitingActivation: countAwaitingActivation(),
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
