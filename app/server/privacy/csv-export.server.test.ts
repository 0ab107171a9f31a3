import { stringify } from "csv-stringify/sync";
import { eq, inArray } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { neutraliseCell } from "~/lib/csv-cell";
import { parseRequestListQuery, type RequestListQuery } from "~/lib/request-list";
import { admins, requestAssignees, requests } from "~db/schema";
import { adminUsernames } from "../accounts/admins.server";
import { db } from "../platform/db.server";
import { requestColumns } from "../requests/columns.server";
import { requestListFilter, requestListOrder } from "../requests/queries.server";
import { loadRelated } from "../requests/serialize.server";
import { requestsCsv } from "./csv-export.server";

// ADR 287: the CSV export reads keyset batches instead of OFFSET batches. Its bytes must be the
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

  // ADR 287: a search ran FTS5's MATCH in every batch (all hits listed again each time:
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

describe("CSV export of a search while requests change", () => {
  let changer = 0;
  let ids: number[] = [];
  beforeAll(() => {
    changer = db()
      .insert(admins)
      .values({ username: "csv-change", email: "csv-change@example.com", passwordHash: "x" })
      .returning({ id: admins.id })
      .get().id;
    const base = Date.UTC(2026, 10, 1, 9);
    ids = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        db()
          .insert(requests)
          .values({
            name: `Zebrafink ${i}`,
            email: `zebrafink${i}@example.com`,
            phone: "030 1234567",
            companyDescription: "Vogelhandlung",
            description: `Zebrafink Anfrage ${i}`,
            status: "New",
            createdAt: new Date(base + i * 60_000),
          })
          .returning({ id: requests.id })
          .get().id,
      );
    }
  });

  beforeEach(() => {
    db()
      .update(requests)
      .set({ archived: false, quarantinedAt: null, status: "New" })
      .where(inArray(requests.id, ids))
      .run();
  });

  async function exportWhileChanging(search: string, change: () => void): Promise<string> {
    const query = parseRequestListQuery(new URLSearchParams(search));
    const reader = requestsCsv(query, changer, requestColumns, 1).getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    if (first.value) chunks.push(first.value);
    // The first row is out; the export is still running when the requests change.
    change();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  // A search export copies its hits once and then reads the rows by id: it must still leave out a
  // request archived, quarantined or moved to another status mid-export, as the list export does.
  it("leaves out a request archived or quarantined after the export began (q=, open tab)", async () => {
    const csv = await exportWhileChanging("q=zebrafink&sort=oldest", () => {
      db().update(requests).set({ archived: true }).where(eq(requests.id, ids[4])).run();
      db().update(requests).set({ quarantinedAt: new Date() }).where(eq(requests.id, ids[5])).run();
    });
    expect(csv).not.toContain("Zebrafink 4");
    expect(csv).not.toContain("Zebrafink 5");
  });

  it("leaves out a request whose status left the filter after the export began (q=&status=New)", async () => {
    const csv = await exportWhileChanging("q=zebrafink&sort=oldest&status=New", () => {
      db().update(requests).set({ status: "Done" }).where(eq(requests.id, ids[5])).run();
    });
    expect(csv).not.toContain("Zebrafink 5");
  });

  it("control: the list export without a search re-applies the filters", async () => {
    const csv = await exportWhileChanging("sort=oldest&status=New", () => {
      db().update(requests).set({ status: "Done" }).where(eq(requests.id, ids[5])).run();
    });
    expect(csv).toContain("Zebrafink 0");
    expect(csv).not.toContain("Zebrafink 5");
  });
});

describe("CSV export of a search under every filter combination", () => {
  it("exports exactly the rows the page's filter selects, in its order, for every combination", async () => {
    const admin = db()
      .insert(admins)
      .values({ username: "csv-combo", email: "csv-combo@example.com", passwordHash: "x" })
      .returning({ id: admins.id })
      .get().id;
    const base = Date.UTC(2026, 9, 1, 9);
    for (let i = 0; i < 40; i++) {
      const id = db()
        .insert(requests)
        .values({
          name: `Kombi ${i}`,
          email: `kombi${i}@example.com`,
          phone: "030 7654321",
          companyDescription: "Zebrafinkzucht",
          description: `Zebrafink Kombi ${i}`,
          status: (["New", "In Progress", "Done"] as const)[i % 3],
          archived: i % 4 === 0,
          attributionSource: i % 5 === 0 ? "google" : null,
          quarantinedAt: i % 7 === 0 ? new Date(base) : null,
          createdAt: new Date(base + Math.floor(((i * 13) % 40) / 4) * 60_000),
        })
        .returning({ id: requests.id })
        .get().id;
      if (i % 2 === 0)
        db().insert(requestAssignees).values({ requestId: id, adminId: admin }).run();
    }
    let nonEmpty = 0;
    const failures: string[] = [];
    for (const tab of ["active", "mine", "archived", "quarantine"])
      for (const status of ["", "New", "Done"])
        for (const assignment of ["", "assigned", "unassigned"])
          for (const source of ["", "google"])
            for (const sort of ["relevance", "newest", "oldest", "id-asc", "id-desc"])
              for (const q of ["zebrafink", 'zebra" NEAR(a b) name:x {*', "gibtesnicht"]) {
                const search = new URLSearchParams({ tab, status, assignment, source, sort, q });
                const query = parseRequestListQuery(search);
                const filter = requestListFilter(query, admin);
                const expected = filter
                  ? db()
                      .select({ id: requests.id })
                      .from(requests)
                      .where(filter.condition)
                      .orderBy(...requestListOrder(query.sort))
                      .all()
                      .map((r) => `#${String(r.id).padStart(4, "0")}`)
                  : [];
                const chunks: Uint8Array[] = [];
                for await (const c of requestsCsv(query, admin, requestColumns, 2, 3))
                  chunks.push(c);
                const got = Buffer.concat(chunks)
                  .toString("utf8")
                  .split("\r\n")
                  .slice(1)
                  .filter(Boolean)
                  .map((line) => line.split(";")[0]);
                if (expected.length) nonEmpty++;
                if (JSON.stringify(got) !== JSON.stringify(expected))
                  failures.push(`${search} got=${got.join(",")} exp=${expected.join(",")}`);
              }
    expect(failures).toEqual([]);
    expect(nonEmpty).toBeGreaterThan(100);
  }, 60_000);
});
