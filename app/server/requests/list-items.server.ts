import { asc, count, sql } from "drizzle-orm";
import { cutAtWord, summaryPreview } from "~/lib/format";
import type { RequestListItem } from "~/lib/request-json";
import type { RequestListQuery } from "~/lib/request-list";
import { affiliateCodes, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../db.server";
import { listRequestIds, type RequestIdPage } from "./queries.server";
import { inIds } from "./serialize.server";

/** Enough of a long text for the row's preview (summaryPreview cuts at 140 characters). */
const PREVIEW_SOURCE = 400;
/** The company line of a row: the first line of the description, cut at a word. */
const COMPANY_MAX = 60;

/** The host of an external referrer ("www.google.com"), or null. */
function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).host || null;
  } catch {
    return null;
  }
}

/** The list's row columns for these ids (exported for its query-plan test). */
export function rowsQuery(ids: number[]) {
  return (
    db()
      .select({
        id: requests.id,
        name: requests.name,
        summary: sql<string | null>`substr(${requests.summary}, 1, ${PREVIEW_SOURCE})`,
        description: sql<string>`substr(${requests.description}, 1, ${PREVIEW_SOURCE})`,
        status: requests.status,
        createdAt: requests.createdAt,
        archived: requests.archived,
        hasAudio: sql<number>`${requests.audioKey} IS NOT NULL`,
        company: sql<string>`substr(${requests.companyDescription}, 1, ${PREVIEW_SOURCE})`,
        source: requests.attributionSource,
        referrer: requests.attributionReferrer,
        code: requests.affiliateCode,
        partner: affiliateCodes.name,
        discount: affiliateCodes.discountValue,
      })
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
 * The rows of the admin list (ADR 190): only what a collapsed row shows, read by id with its
 * attachment count and assignees (3 small queries), in the given order. The affiliate code's
 * partner and discount come with the row (a join on the code's unique index), not per row.
 */
export function loadRequestListItems(ids: number[]): RequestListItem[] {
  if (!ids.length) return [];
  const rows = rowsQuery(ids).all();
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
        company: cutAtWord(row.company.split("\n")[0]?.trim() ?? "", COMPANY_MAX),
        source: row.source ?? referrerHost(row.referrer),
        code: row.code
          ? { code: row.code, partner: row.partner ?? null, discount: row.discount ?? null }
          : null,
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
