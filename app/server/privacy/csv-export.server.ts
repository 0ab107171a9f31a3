import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { and, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import { neutraliseCell } from "~/lib/csv-cell";
import { parseRequestListQuery, type RequestListQuery } from "~/lib/request-list";
import { requests } from "~db/schema";
import { adminUsernames } from "../admins.server";
import { db } from "../db.server";
import type { AnyColumnRegistry } from "../requests/column-registry.server";
import { requestColumns } from "../requests/columns.server";
import { requestListFilter, requestListOrder, searchHits } from "../requests/queries.server";
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

/** FTS5 hits copied per step into a search export's hit table. */
export const HIT_BATCH = 5000;
let hitTables = 0;

/**
 * A search export's rows (issue 31): the search as `id IN (FTS5 MATCH)` in every keyset batch
 * made SQLite list all hits again per batch — quadratic (133,333 rows at 1M: 177 s, /healthz held
 * 12 s). Instead the hits that pass the filters are copied once, in FTS5 rowid steps of HIT_BATCH,
 * into a temporary table keyed by the export's order (its pages in SQLite's temporary file, not
 * in the heap); each batch then reads the next ids from that key and the rows by id. The table
 * lives on this connection only and is dropped when the export ends or is aborted.
 */
async function* searchRows(
  sort: RequestListQuery["sort"],
  match: string,
  filters: SQL | undefined,
  batch: number,
  hitBatch: number,
): AsyncGenerator<Row[]> {
  const table = sql.identifier(`export_hits_${++hitTables}`);
  const byId = sort === "id-desc" || sort === "id-asc";
  const ascending = sort === "oldest" || sort === "id-asc";
  const direction = ascending ? sql`ASC` : sql`DESC`;
  db().run(
    sql`CREATE TEMP TABLE ${table} (k INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (k, id)) WITHOUT ROWID`,
  );
  try {
    let below = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const copied = db().all<{ id: number }>(
        sql`INSERT INTO ${table} (k, id)
            SELECT ${byId ? requests.id : requests.createdAt}, ${requests.id}
            FROM ${searchHits(match, filters)} AND requests_fts.rowid < ${below}
            ORDER BY requests_fts.rowid DESC LIMIT ${hitBatch}
            RETURNING id`,
      );
      if (copied.length < hitBatch) break;
      below = Math.min(...copied.map((r) => r.id));
      await nextTurn();
    }
    let after: SQL = sql`1`;
    for (;;) {
      const keys = db().all<{ k: number; id: number }>(
        sql`SELECT k, id FROM ${table} WHERE ${after} ORDER BY k ${direction}, id ${direction} LIMIT ${batch}`,
      );
      if (!keys.length) return;
      const rows = new Map(
        db()
          .select()
          .from(requests)
          .where(
            inArray(
              requests.id,
              keys.map((k) => k.id),
            ),
          )
          .all()
          .map((r) => [r.id, r]),
      );
      // A request erased meanwhile is left out.
      yield keys.flatMap((k) => rows.get(k.id) ?? []);
      if (keys.length < batch) return;
      const last = keys[keys.length - 1];
      after = sql`(k, id) ${ascending ? sql`>` : sql`<`} (${last.k}, ${last.id})`;
      await nextTurn();
    }
  } finally {
    db().run(sql`DROP TABLE IF EXISTS temp.${table}`);
  }
}

/** Rows of a list without a search, in keyset batches of its order. */
async function* listRows(
  sort: RequestListQuery["sort"],
  condition: SQL | undefined,
  batch: number,
): AsyncGenerator<Row[]> {
  const order = requestListOrder(sort);
  let after: SQL | undefined;
  for (;;) {
    const rows = db()
      .select()
      .from(requests)
      .where(and(condition, after))
      .orderBy(...order)
      .limit(batch)
      .all();
    if (rows.length) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    after = afterRow(sort, last);
    await nextTurn();
  }
}

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
  hitBatch: number,
): AsyncGenerator<string[]> {
  const filter = requestListFilter(query, adminId);
  if (!filter) return;
  const context = { usernames: adminUsernames() };
  const cells = columns.csvColumns.map((c) => c.cell);
  const batches = filter.match
    ? searchRows(query.sort, filter.match, filter.filters, batch, hitBatch)
    : listRows(query.sort, filter.condition, batch);
  for await (const rows of batches) {
    const related = loadRelated(rows.map((r) => r.id));
    for (const row of rows) {
      const files = related.files(row.id);
      const assignedTo = related.assignedTo(row.id);
      yield cells.map((cell) => neutraliseCell(cell(row, files, assignedTo, context)));
    }
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
  hitBatch = HIT_BATCH,
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
  // pipeline, not pipe: a download the client breaks off destroys the source too, so the
  // generator ends (its finally drops a search's hit table) instead of waiting forever.
  pipeline(Readable.from(csvRows(query, adminId, columns, batch, hitBatch)), csv, () => {});
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
