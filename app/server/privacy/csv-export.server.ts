import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { and, gt, lt, type SQL, sql } from "drizzle-orm";
import { neutraliseCell } from "~/lib/csv-cell";
import { parseRequestListQuery, type RequestListQuery } from "~/lib/request-list";
import { requests } from "~db/schema";
import { adminUsernames } from "../admins.server";
import { db } from "../db.server";
import type { AnyColumnRegistry } from "../requests/column-registry.server";
import { requestColumns } from "../requests/columns.server";
import { requestListFilter, requestListOrder } from "../requests/queries.server";
import { loadRelated } from "../requests/serialize.server";
import { audit } from "./audit.server";

/** Rows per read: one short synchronous query, then the event loop is free again. */
export const CSV_BATCH = 1000;

type Row = typeof requests.$inferSelect;

/**
 * The list's order as a keyset (issue 31): the condition "after this row" in the order of
 * requestListOrder, so every batch starts in the index where the last one stopped — no OFFSET,
 * whose skipped rows made a long export quadratic. The equal-time case keeps the range on the
 * index column (created_at <= c) and sorts ties by id, as the ORDER BY does.
 */
function afterRow(sort: RequestListQuery["sort"], row: Row): SQL {
  const at = row.createdAt.getTime();
  switch (sort) {
    case "id-desc":
      return lt(requests.id, row.id);
    case "id-asc":
      return gt(requests.id, row.id);
    case "oldest":
      return sql`${requests.createdAt} >= ${at} AND (${requests.createdAt} > ${at} OR ${requests.id} > ${row.id})`;
    default:
      return sql`${requests.createdAt} <= ${at} AND (${requests.createdAt} < ${at} OR ${requests.id} < ${row.id})`;
  }
}

/** Lets the event loop run (timers, other requests' I/O) before the next batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rows of the current list filter, read in keyset batches (never the whole table in memory, never
 * an OFFSET); the server answers other requests between two batches. The cells are the registry's
 * CSV cells (ADR 242), in its CSV order.
 */
async function* csvRows(
  query: RequestListQuery,
  adminId: number,
  columns: AnyColumnRegistry,
  batch: number,
): AsyncGenerator<string[]> {
  const filter = requestListFilter(query, adminId);
  if (!filter) return;
  const context = { usernames: adminUsernames() };
  const order = requestListOrder(query.sort);
  const cells = columns.csvColumns.map((c) => c.cell);
  let after: SQL | undefined;
  for (;;) {
    const rows = db()
      .select()
      .from(requests)
      .where(and(filter.condition, after))
      .orderBy(...order)
      .limit(batch)
      .all();
    if (rows.length) {
      const related = loadRelated(rows.map((r) => r.id));
      for (const row of rows) {
        const files = related.files(row.id);
        const assignedTo = related.assignedTo(row.id);
        yield cells.map((cell) => neutraliseCell(cell(row, files, assignedTo, context)));
      }
    }
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    after = afterRow(query.sort, last);
    await nextTurn();
  }
}

/**
 * The request list (same filters as the page) as CSV for German Excel: UTF-8 with BOM, `;`,
 * de-DE dates, formula-like cells neutralised; streamed with backpressure.
 */
export function requestsCsv(
  query: RequestListQuery,
  adminId: number,
  columns: AnyColumnRegistry = requestColumns,
  batch = CSV_BATCH,
): ReadableStream<Uint8Array> {
  const csv = stringify({
    bom: true,
    delimiter: ";",
    header: true,
    columns: columns.csvColumns.map((c) => c.label),
    record_delimiter: "windows",
    // csv-stringify quotes a field only for the full record delimiter ("\r\n"); a lone "\n" or
    // "\r" inside a text (a two-line company description) would split the row in Excel.
    quoted_match: /[\r\n]/,
  });
  Readable.from(csvRows(query, adminId, columns, batch)).pipe(csv);
  return Readable.toWeb(csv) as ReadableStream<Uint8Array>;
}

export function csvFileName(now = new Date()) {
  return `anfragen-${now.toISOString().slice(0, 10)}.csv`;
}

/** GET /api/admin/requests/export.csv?<list filters>: the streamed download. */
export function requestsCsvResponse(url: URL, admin: { id: number; username: string }): Response {
  const query = parseRequestListQuery(url.searchParams);
  // The filter without the search text (which may name a person).
  audit(admin, "export-csv", "Anfrageliste", {
    tab: query.tab,
    status: query.status || null,
    zuweisung: query.assignment || null,
    quelle: query.source || null,
    suche: query.q ? "ja" : "nein",
  });
  return new Response(requestsCsv(query, admin.id), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
