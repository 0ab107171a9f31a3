import { asc, count, sql } from "drizzle-orm";
import { summaryPreview } from "~/lib/format";
import type { RequestListItem } from "~/lib/request-json";
import type { RequestListQuery } from "~/lib/request-list";
import { attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../db.server";
import { listRequestIds, type RequestIdPage } from "./queries.server";
import { inIds } from "./serialize.server";

/** Enough of a long text for the row's preview (summaryPreview cuts at 140 characters). */
const PREVIEW_SOURCE = 400;

/**
 * The rows of the admin list (ADR 190): only what a collapsed row shows, read by id with its
 * attachment count and assignees (3 small queries), in the given order.
 */
export function loadRequestListItems(ids: number[]): RequestListItem[] {
  if (!ids.length) return [];
  const rows = db()
    .select({
      id: requests.id,
      name: requests.name,
      summary: sql<string | null>`substr(${requests.summary}, 1, ${PREVIEW_SOURCE})`,
      description: sql<string>`substr(${requests.description}, 1, ${PREVIEW_SOURCE})`,
      status: requests.status,
      createdAt: requests.createdAt,
      archived: requests.archived,
      hasAudio: sql<number>`${requests.audioKey} IS NOT NULL`,
    })
    .from(requests)
    .where(inIds(requests.id, ids))
    .all();
  const files = new Map(
    db()
      .select({ id: attachments.requestId, n: count() })
      .from(attachments)
      .where(inIds(attachments.requestId, ids))
      .groupBy(attachments.requestId)
      .all()
      .map((r) => [r.id, r.n]),
  );
  const assignees = db()
    .select({ id: requestAssignees.requestId, adminId: requestAssignees.adminId })
    .from(requestAssignees)
    .where(inIds(requestAssignees.requestId, ids))
    .orderBy(asc(requestAssignees.assignedAt))
    .all();
  const byId = new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        preview: summaryPreview(row),
        status: row.status,
        createdAt: row.createdAt.toISOString(),
        archived: row.archived,
        files: files.get(row.id) ?? 0,
        hasAudio: Boolean(row.hasAudio),
        assigned_to: assignees.filter((a) => a.id === row.id).map((a) => a.adminId),
      } satisfies RequestListItem,
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
