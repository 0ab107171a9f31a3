import { eq, inArray } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseRequestListQuery } from "~/lib/request-list";
import { db } from "~/server/platform/db.server";
import { requestsCsv } from "~/server/privacy/csv-export.server";
import { requestColumns } from "~/server/requests/columns.server";
import { admins, requests } from "~db/schema";

// Attack review of issue 31 (helper attack31): defects found in today's work, each a failing test
// (formatDateTime before 1893: app/lib/format.test.ts).

describe("CSV export of a search while requests change (csv-export.server.ts searchRows)", () => {
  let adminId = 0;
  let ids: number[] = [];
  beforeAll(() => {
    adminId = db()
      .insert(admins)
      .values({ username: "attack31", email: "attack31@example.com", passwordHash: "x" })
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
    const reader = requestsCsv(query, adminId, requestColumns, 1).getReader();
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

  // The former export (and the list export today) applied the filters in every batch; a search
  // export now copies its hits once and then reads the rows by id without the filters, so a
  // request archived, quarantined or moved to another status mid-export still goes out in an
  // export of the open tab / of status "New".
  it("leaves out a request archived or quarantined after the export began (q=, open tab)", async () => {
    const csv = await exportWhileChanging("q=zebrafink&sort=oldest", () => {
      db().update(requests).set({ archived: true }).where(eq(requests.id, ids[4])).run();
      db().update(requests).set({ quarantinedAt: new Date() }).where(eq(requests.id, ids[5])).run();
    });
    // The same export without a search (list path) leaves them out.
    expect(csv).not.toContain("Zebrafink 4");
    expect(csv).not.toContain("Zebrafink 5");
  });

  it("leaves out a request whose status left the filter after the export began (q=&status=New)", async () => {
    const csv = await exportWhileChanging("q=zebrafink&sort=oldest&status=New", () => {
      db().update(requests).set({ status: "Done" }).where(eq(requests.id, ids[5])).run();
    });
    expect(csv).not.toContain("Zebrafink 5");
  });

  it("control: the list export without a search re-applies the filters (passes)", async () => {
    const csv = await exportWhileChanging("sort=oldest&status=New", () => {
      db().update(requests).set({ status: "Done" }).where(eq(requests.id, ids[5])).run();
    });
    expect(csv).toContain("Zebrafink 0");
    expect(csv).not.toContain("Zebrafink 5");
  });
});

describe("CSV export of a search under every filter combination (passes: no defect found)", () => {
  it("exports exactly the rows the page's filter selects, in its order, for every combination", async () => {
    const { requestListFilter, requestListOrder } = await import(
      "~/server/requests/queries.server"
    );
    const admin = db()
      .insert(admins)
      .values({ username: "attack31-combo", email: "a31c@example.com", passwordHash: "x" })
      .returning({ id: admins.id })
      .get().id;
    const { requestAssignees } = await import("~db/schema");
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
