import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { neutraliseCell } from "~/lib/csv-cell";
import { formatDateTime, formatRequestId } from "~/lib/format";
import { parseRequestListQuery, type RequestListQuery, STATUS_LABELS } from "~/lib/request-list";
import { requests } from "~db/schema";
import { adminUsernames } from "../admins.server";
import { db } from "../db.server";
import { requestListFilter, requestListOrder } from "../requests/queries.server";
import { serializeRequests } from "../requests/serialize.server";
import { audit } from "./audit.server";

const BATCH = 500;
const COLUMNS = [
  "Nr.",
  "Eingegangen",
  "Name",
  "E-Mail",
  "Telefon",
  "Unternehmen",
  "Projektbeschreibung",
  "Zusammenfassung",
  "Status",
  "Archiviert",
  "Affiliate-Code",
  "Quelle",
  "Zugewiesen",
  "Anhänge",
  "Zuletzt geändert",
];

/** Rows of the current list filter, read in batches (never the whole table in memory). */
function* csvRows(query: RequestListQuery, adminId: number): Generator<string[]> {
  const filter = requestListFilter(query, adminId);
  if (!filter) return;
  const usernames = adminUsernames();
  const order = requestListOrder(query.sort);
  for (let offset = 0; ; offset += BATCH) {
    const rows = db()
      .select()
      .from(requests)
      .where(filter.condition)
      .orderBy(...order)
      .limit(BATCH)
      .offset(offset)
      .all();
    for (const r of serializeRequests(rows)) {
      yield [
        `#${formatRequestId(r.id)}`,
        formatDateTime(r.createdAt),
        r.name,
        r.email,
        r.phone,
        r.companyDescription,
        r.description,
        r.summary ?? "",
        STATUS_LABELS[r.status],
        r.archived ? "Ja" : "Nein",
        r.affiliateCode ?? "",
        r.attribution.source ?? "",
        r.assigned_to.map((id) => usernames.get(id) ?? `#${id}`).join(", "),
        String(r.attachments.length),
        formatDateTime(r.updatedAt),
      ].map(neutraliseCell);
    }
    if (rows.length < BATCH) return;
  }
}

/**
 * The request list (same filters as the page) as CSV for German Excel: UTF-8 with BOM, `;`,
 * de-DE dates, formula-like cells neutralised; streamed with backpressure.
 */
export function requestsCsv(query: RequestListQuery, adminId: number): ReadableStream<Uint8Array> {
  const csv = stringify({
    bom: true,
    delimiter: ";",
    header: true,
    columns: COLUMNS,
    record_delimiter: "windows",
  });
  Readable.from(csvRows(query, adminId)).pipe(csv);
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
