import { and, asc, eq, inArray, ne, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { RequestJson } from "~/lib/request-json";
import { appointments, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { preparedRows } from "../platform/db-rows.server";
import type {
  AnyColumnRegistry,
  AttachmentRow,
  ColumnRegistry,
  RequestRow,
} from "./column-registry.server";
import { requestColumns } from "./columns.server";

/** The spec's request JSON of one row (keys and values from the column registry). */
export function serializeRequest(
  row: RequestRow,
  files: AttachmentRow[],
  assignedTo: number[],
): RequestJson {
  return requestColumns.json(row, files, assignedTo);
}

/**
 * `column IN (ids)` as one JSON parameter: the SQL text (and its cached prepared statement) stays
 * the same for any number of ids, and building it costs nothing (drizzle's `inArray` binds one
 * parameter per id; for the API's 1,000 rows that was ~2.5 ms per call).
 */
export function inIds(column: SQLWrapper, ids: number[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * The attachments and assignees of these rows, grouped by request id (2 queries; for the JSON and
 * the CSV export).
 */
export function loadRelated(ids: number[]) {
  const files = groupBy(
    db()
      .select()
      .from(attachments)
      .where(inIds(attachments.requestId, ids))
      .orderBy(asc(attachments.id))
      .all(),
    (f) => f.requestId,
  );
  const assignees = groupBy(
    db()
      .select()
      .from(requestAssignees)
      .where(inIds(requestAssignees.requestId, ids))
      .orderBy(asc(requestAssignees.assignedAt))
      .all(),
    (a) => a.requestId,
  );
  return {
    files: (id: number) => files.get(id) ?? [],
    assignedTo: (id: number) => (assignees.get(id) ?? []).map((a) => a.adminId),
  };
}

/** Loads and serialises the given rows with their attachments and assignees (3 queries). */
export function serializeRequests(rows: RequestRow[]): RequestJson[];
/** The same through another registry (a test's extended one). */
export function serializeRequests<J, I>(rows: RequestRow[], columns: ColumnRegistry<J, I>): J[];
export function serializeRequests(
  rows: RequestRow[],
  columns: AnyColumnRegistry = requestColumns,
): unknown[] {
  if (!rows.length) return [];
  const related = loadRelated(rows.map((r) => r.id));
  return rows.map((row) => columns.json(row, related.files(row.id), related.assignedTo(row.id)));
}

/** One request in the spec's shape, or null. */
export function loadRequestJson(id: number): RequestJson | null {
  const row = db().select().from(requests).where(eq(requests.id, id)).get();
  return row ? serializeRequests([row])[0] : null;
}

/** The request whose voice recording is stored under key (for GET /api/audio/{key}). */
export function requestIdForAudio(key: string): number | null {
  const row = db()
    .select({ id: requests.id })
    .from(requests)
    .where(eq(requests.audioKey, key))
    .get();
  return row?.id ?? null;
}

const rowsByIds = preparedRows(requests, () =>
  db()
    .select()
    .from(requests)
    .where(sql`${requests.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`),
);

/** The rows of these requests, in the given order (missing ids skipped). */
export function requestRowsByIds(ids: number[]): RequestRow[] {
  if (!ids.length) return [];
  const rows = rowsByIds({ ids: JSON.stringify(ids) });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is RequestRow => !!row);
}

/** Serialised requests by id, in the given order (missing ids skipped). */
export function loadRequestsJson(ids: number[]): RequestJson[] {
  return serializeRequests(requestRowsByIds(ids));
}

/** Ids among `ids` that already have a booked (not cancelled) demo appointment. */
export function requestsWithAppointment(ids: number[]): number[] {
  if (!ids.length) return [];
  return db()
    .select({ id: appointments.requestId })
    .from(appointments)
    .where(and(inArray(appointments.requestId, ids), ne(appointments.status, "CANCELLED")))
    .all()
    .map((r) => r.id as number);
}
