import { stringify } from "csv-stringify/sync";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { neutraliseCell } from "~/lib/csv-cell";
import { parseRequestListQuery, type RequestListQuery } from "~/lib/request-list";
import { admins, requestAssignees, requests } from "~db/schema";
import { adminUsernames } from "../accounts/admins.server";
import { db } from "../platform/db.server";
import { requestColumns } from "../requests/columns.server";
import { requestListFilter, requestListOrder } from "../requests/queries.server";
import { loadRelated } from "../requests/serialize.server";
import { requestsCsv } from "./csv-export.server";

// Issue 31: the CSV export reads keyset batches instead of OFFSET batches. Its bytes must be the
// very bytes of the former export, for every sort and filter, with ties in created_at across
// batch boundaries. The reference is the former algorithm (the whole filtered list in its order).

function referenceCsv(query: RequestListQuery, adminId: number): string {
  const filter = requestListFilter(query, adminId);
  const rows = filter
    ? db()
        .select()
        .from(requests)
        .where(filter.condition)
        .orderBy(...requestListOrder(query.sort))
        .all()
    : [];
  const related = loadRelated(rows.map((r) => r.id));
  const context = { usernames: adminUsernames() };
  const records = rows.map((row) =>
    requestColumns.csvColumns.map((c) =>
      neutraliseCell(c.cell(row, related.files(row.id), related.assignedTo(row.id), context)),
    ),
  );
  return stringify(records, {
    bom: true,
    delimiter: ";",
    header: true,
    columns: requestColumns.csvColumns.map((c) => c.label),
    record_delimiter: "windows",
    quoted_match: /[\r\n]/,
  });
}

async function streamed(query: RequestListQuery, adminId: number, batch: number, hitBatch = 5000) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of requestsCsv(query, adminId, requestColumns, batch, hitBatch))
    chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const tempTables = () =>
  db().$client.prepare("SELECT name FROM sqlite_temp_master WHERE type = 'table'").pluck().all();

let adminId = 0;

beforeAll(() => {
  adminId = db()
    .insert(admins)
    .values({ username: "csv-stream", email: "csv-stream@example.com", passwordHash: "x" })
    .returning({ id: admins.id })
    .get().id;
  const base = Date.UTC(2026, 10, 1, 9);
  const words = ["Terminbuchung", "Lagerverwaltung", "Kundenportal"];
  for (let i = 0; i < 230; i++) {
    const id = db()
      .insert(requests)
      .values({
        name: `Stream ${i}`,
        email: `stream${i}@example.com`,
        phone: "030 1234567",
        companyDescription: i % 7 === 0 ? "=SUMME(A1)\nzweite Zeile" : `Firma ${i}`,
        description: `${words[i % 3]} für Firma ${i}; "zitiert"`,
        status: (["New", "In Progress", "Done"] as const)[i % 3],
        archived: i % 5 === 0,
        attributionSource: i % 4 === 0 ? "google" : null,
        quarantinedAt: i % 11 === 0 ? new Date(base) : null,
        // Groups of up to 6 requests share a creation time, and the times are not in id order.
        createdAt: new Date(base + Math.floor(((i * 37) % 230) / 6) * 60_000),
      })
      .returning({ id: requests.id })
      .get().id;
    if (i % 3 === 0)
      db().insert(requestAssignees).values({ requestId: id, adminId }).onConflictDoNothing().run();
  }
});

describe("CSV export in keyset batches", () => {
  const queries = [
    "",
    "sort=oldest",
    "sort=id-asc",
    "sort=id-desc",
    "sort=relevance",
    "tab=archived",
    "tab=quarantine",
    "tab=mine&sort=oldest",
    "status=Done",
    "assignment=unassigned&sort=id-asc",
    "source=google",
    "q=terminbuchung",
    "q=terminbuchung&sort=oldest&status=New",
    "q=firma&sort=id-asc&tab=archived",
    "q=firma&sort=id-desc",
    "q=kundenportal&sort=relevance&tab=mine",
    "q=firma&tab=quarantine&sort=oldest",
    "q=gibtesnicht",
  ];
  it.each(queries)("is byte for byte the former export: %s", async (search) => {
    const query = parseRequestListQuery(new URLSearchParams(search));
    const expected = referenceCsv(query, adminId);
    // A batch of 7 puts many batch boundaries inside groups of equal creation times; a hit batch
    // of 4 makes a search copy its hits in many steps.
    expect(await streamed(query, adminId, 7)).toBe(expected);
    expect(await streamed(query, adminId, 7, 4)).toBe(expected);
    expect(await streamed(query, adminId, 1000)).toBe(expected);
    expect(tempTables()).toEqual([]);
  });
});

describe("CSV export of a search", () => {
  afterEach(() => vi.restoreAllMocks());

  // Issue 31: a search ran FTS5's MATCH in every batch (all hits listed again each time:
  // quadratic at 1M). Now the hits are copied once, in hit batches, and the batches read by id.
  it("runs the full-text search once per hit batch, not once per row batch", async () => {
    const prepare = vi.spyOn(db().$client, "prepare");
    const query = parseRequestListQuery(new URLSearchParams("q=firma"));
    const csv = await streamed(query, adminId, 7);
    const rows = csv.split("\r\n").length - 2;
    expect(rows).toBeGreaterThan(100);
    const matches = prepare.mock.calls.filter(([text]) => /\bMATCH\b/.test(String(text)));
    expect(matches).toHaveLength(1);
  });

  it("drops its hit table when the download is aborted", async () => {
    const query = parseRequestListQuery(new URLSearchParams("q=firma"));
    const reader = requestsCsv(query, adminId, requestColumns, 7, 4).getReader();
    await reader.read();
    expect(tempTables()).toHaveLength(1);
    await reader.cancel();
    await vi.waitFor(() => expect(tempTables()).toEqual([]));
  });
});
