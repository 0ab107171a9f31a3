import { asc, count, sql } from "drizzle-orm";
import type { RequestListItem } from "~/lib/request-json";
import type { RequestListQuery } from "~/lib/request-list";
import { affiliateCodes, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import type { AnyColumnRegistry, ColumnRegistry } from "./column-registry.server";
import { requestColumns } from "./columns.server";
import { listRequestIds, type RequestIdPage } from "./queries.server";
import { inIds } from "./serialize.server";

/** The list's row columns for these ids, as the registry's list cells select them (exported for its query-plan test). */
export function rowsQuery(ids: number[], columns: AnyColumnRegistry = requestColumns) {
  return (
    db()
      .select(columns.listSelection)
      .from(requests)
      // upper() on both sides: a look-up in affiliate_codes_code_unique (on upper(code)) per row;
      // a bare column on the right would give it TEXT affinity and a scan of the codes instead.
      .leftJoin(
        affiliateCodes,
        sql`upper(${affiliateCodes.code}) = upper(${requests.affiliateCode})`,
      )
      .where(inIds(requests.id, ids))
  );
}

/**
 * The rows of the admin list (ADR 190): only what a collapsed row shows (the registry's list
 * cells, ADR 242), read by id with its attachment count and assignees (3 small queries), in the
 * given order. The affiliate code's partner and discount come with the row (a join on the code's
 * unique index), not per row.
 */
export function loadRequestListItems(ids: number[]): RequestListItem[];
/** The same through another registry (a test's extended one). */
export function loadRequestListItems<J, I>(ids: number[], columns: ColumnRegistry<J, I>): I[];
export function loadRequestListItems(
  ids: number[],
  columns: AnyColumnRegistry = requestColumns,
): unknown[] {
  if (!ids.length) return [];
  const rows = rowsQuery(ids, columns).all();
  const files = new Map(
    db()
      .select({ id: attachments.requestId, n: count() })
      .from(attachments)
      .where(inIds(attachments.requestId, ids))
      .groupBy(attachments.requestId)
      .all()
      .map((r) => [r.id, r.n]),
  );
  const assignees = new Map<number, number[]>();
  for (const a of db()
    .select({ id: requestAssignees.requestId, adminId: requestAssignees.adminId })
    .from(requestAssignees)
    .where(inIds(requestAssignees.requestId, ids))
    .orderBy(asc(requestAssignees.assignedAt))
    .all()) {
    const list = assignees.get(a.id);
    if (list) list.push(a.adminId);
    else assignees.set(a.id, [a.adminId]);
  }
  const byId = new Map(
    rows.map((row) => [
      row.id,
      columns.listItem(row, files.get(row.id) ?? 0, assignees.get(row.id) ?? []),
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
}

/** One page of the admin list as list items (the HTML page; /api keeps the full JSON). */
export function listRequestItems(
  query: RequestListQuery,
  adminId: number,
): Omit<RequestIdPage, "ids"> & { items: RequestListItem[] } {
  const { ids, ...page } = listRequestIds(query, adminId);
  return { ...page, items: loadRequestListItems(ids) };
}
