import { stringify } from "csv-stringify/sync";
import { and, inArray, type SQL, sql } from "drizzle-orm";
import { neutraliseCell } from "~/lib/csv-cell";
import { parseRequestListQuery, type RequestListQuery } from "~/lib/request-list";
import { requests } from "~db/schema";
import { adminUsernames } from "../accounts/admins.server";
import { db } from "../platform/db.server";
import { preparedRows } from "../platform/db-rows.server";
import type { AnyColumnRegistry } from "../requests/column-registry.server";
import { requestColumns } from "../requests/columns.server";
import { requestListFilter, requestListOrder, searchHits } from "../requests/queries.server";
import { loadRelated } from "../requests/serialize.server";
import { audit } from "./audit.server";

/**
 * Rows per read: one short synchronous step (query, cells, CSV text), then the event loop is free
 * again. Small enough that a batch's objects die in V8's young generation (4 MB, ADR 297) instead
 * of being promoted: with 1,000 rows a third of the export's CPU went to the collector.
 */
export const CSV_BATCH = 250;

type Row = typeof requests.$inferSelect;

/**
 * The list's order as a keyset (ADR 287): the condition "after this row" in the order of
 * requestListOrder, so every batch starts in the index where the last one stopped — no OFFSET,
 * whose skipped rows made a long export quadratic. The equal-time case keeps the range on the
 * index column (created_at <= c) and sorts ties by id, as the ORDER BY does. Its values are the
 * placeholders `at` and `id`; `start` gives the values before the first row.
 */
function keyset(sort: RequestListQuery["sort"]): { after: SQL; start: { at: number; id: number } } {
  const at = sql.placeholder("at");
  const id = sql.placeholder("id");
  const up = { at: Number.MIN_SAFE_INTEGER, id: Number.MIN_SAFE_INTEGER };
  const down = { at: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };
  switch (sort) {
    case "id-desc":
      return { after: sql`${requests.id} < ${id}`, start: down };
    case "id-asc":
      return { after: sql`${requests.id} > ${id}`, start: up };
    case "oldest":
      return {
        after: sql`${requests.createdAt} >= ${at} AND (${requests.createdAt} > ${at} OR ${requests.id} > ${id})`,
        start: up,
      };
    default:
      return {
        after: sql`${requests.createdAt} <= ${at} AND (${requests.createdAt} < ${at} OR ${requests.id} < ${id})`,
        start: down,
      };
  }
}

/** Lets the event loop run (timers, other requests' I/O) before the next batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** FTS5 hits copied per step into a search export's hit table. */
export const HIT_BATCH = 5000;
let hitTables = 0;

/**
 * A search export's rows (ADR 287): the search as `id IN (FTS5 MATCH)` in every keyset batch
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
      // The filters again: a request erased, archived, quarantined or moved to another status
      // since the hits were copied is left out, as a list export leaves it out.
      const ids = keys.map((k) => k.id);
      const rows = new Map(
        db()
          .select()
          .from(requests)
          .where(and(inArray(requests.id, ids), filters))
          .all()
          .map((row) => [row.id, row]),
      );
      yield ids.flatMap((id) => rows.get(id) ?? []);
      if (keys.length < batch) return;
      const last = keys[keys.length - 1];
      after = sql`(k, id) ${ascending ? sql`>` : sql`<`} (${last.k}, ${last.id})`;
      await nextTurn();
    }
  } finally {
    db().run(sql`DROP TABLE IF EXISTS temp.${table}`);
  }
}

/** Rows of a list without a search, in keyset batches of its order (one prepared read). */
async function* listRows(
  sort: RequestListQuery["sort"],
  condition: SQL | undefined,
  batch: number,
): AsyncGenerator<Row[]> {
  const { after, start } = keyset(sort);
  const read = preparedRows(requests, () =>
    db()
      .select()
      .from(requests)
      .where(and(condition, after))
      .orderBy(...requestListOrder(sort))
      .limit(sql.placeholder("limit")),
  );
  let values = start;
  for (;;) {
    const rows = read({ ...values, limit: batch });
    if (rows.length) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    values = { at: last.createdAt.getTime(), id: last.id };
    await nextTurn();
  }
}

/**
 * The export's CSV text, one piece per batch: rows of the current list filter, read in keyset
 * batches (never the whole table in memory, never an OFFSET); the server answers other requests
 * between two batches. The cells are the registry's CSV cells (ADR 242), in its CSV order; a
 * batch's records become one string (csv-stringify's sync API), so the stream handles one chunk
 * per batch instead of one per row.
 */
async function* csvText(
  query: RequestListQuery,
  adminId: number,
  columns: AnyColumnRegistry,
  batch: number,
  hitBatch: number,
): AsyncGenerator<string> {
  const options = {
    delimiter: ";",
    columns: columns.csvColumns.map((c) => c.label),
    record_delimiter: "windows",
    // csv-stringify quotes a field only for the full record delimiter ("\r\n"); a lone "\n" or
    // "\r" inside a text (a two-line company description) would split the row in Excel.
    quoted_match: /[\r\n]/,
  } as const;
  let first = true;
  const filter = requestListFilter(query, adminId);
  if (filter) {
    const context = { usernames: adminUsernames() };
    const cells = columns.csvColumns.map((c) => c.cell);
    const batches = filter.match
      ? searchRows(query.sort, filter.match, filter.filters, batch, hitBatch)
      : listRows(query.sort, filter.condition, batch);
    for await (const rows of batches) {
      if (!rows.length) continue;
      const related = loadRelated(rows.map((r) => r.id));
      const records = rows.map((row) => {
        const files = related.files(row.id);
        const assignedTo = related.assignedTo(row.id);
        return cells.map((cell) => neutraliseCell(cell(row, files, assignedTo, context)));
      });
      yield stringify(records, { ...options, bom: first, header: first });
      first = false;
    }
  }
  // Nothing found: the header alone.
  if (first) yield stringify([], { ...options, bom: true, header: true });
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
  // Pulled batch by batch, nothing before the first read (a HEAD answer, which drops the body
  // unread, never starts it); a download the client breaks off cancels the stream, which ends
  // the generator (its finally drops a search's hit table).
  const text = csvText(query, adminId, columns, batch, hitBatch);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await text.next();
        if (next.done) controller.close();
        else controller.enqueue(Buffer.from(next.value, "utf8"));
      },
      async cancel() {
        await text.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

export function csvFileName(now = new Date()) {
  return `anfragen-${now.toISOString().slice(0, 10)}.csv`;
}

/** GET /api/admin/requests/export.csv?<list filters>: the streamed download. */
export function requestsCsvResponse(url: URL, admin: { id: number; username: string }): Response {
  const query = parseRequestListQuery(url.searchParams);
  // The filter without the search text (which may name a person); filters not set are left out.
  audit(admin, "export-csv", "Anfrageliste", {
    tab: query.tab,
    ...(query.status ? { status: query.status } : {}),
    ...(query.assignment ? { zuweisung: query.assignment } : {}),
    ...(query.source ? { quelle: query.source } : {}),
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
