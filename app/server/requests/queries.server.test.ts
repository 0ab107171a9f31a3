import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ftsQuery, parseRequestListQuery } from "~/lib/request-list";
import { admins, requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { getStats, listRequests } from "./queries.server";

// The list's search (ADR 175) filters FTS5 hits through requests_search_filter_idx and ranks only
// those; these tests compare it with the plain formulation (every hit joined to its row, sorted by
// rank) on a seeded table, and check counts, filters and page numbers.
const BASE = Date.UTC(2026, 10, 1);
const STATUSES = ["New", "In Progress", "Done"] as const;
const SOURCES = ["google", null, "newsletter"];
const TEXTS = [
  "Terminbuchung für die Praxis",
  "Terminbuchung Terminbuchung online, schnell",
  "Eine lange Beschreibung über Lagerverwaltung, Rechnungen und am Ende auch Terminbuchung für Kunden im ganzen Land",
  "Lagerverwaltung für die Bäckerei",
  "Kundenportal",
];
let adminId = 0;
let otherAdminId = 0;

const query = (search: string) => parseRequestListQuery(new URLSearchParams(search));

/** The reference: every FTS5 hit joined to its row and sorted by rank, newest first on ties. */
function reference(search: string): number[] {
  const q = query(search);
  const match = ftsQuery(q.q) as string;
  const where = [sql`r.archived = ${q.tab === "archived" ? 1 : 0}`];
  if (q.status) where.push(sql`r.status = ${q.status}`);
  if (q.source) where.push(sql`r.attribution_source = ${q.source}`);
  const assigned = sql`EXISTS (SELECT 1 FROM request_assignees a WHERE a.request_id = r.id)`;
  if (q.assignment === "assigned") where.push(assigned);
  if (q.assignment === "unassigned") where.push(sql`NOT ${assigned}`);
  if (q.tab === "mine")
    where.push(
      sql`EXISTS (SELECT 1 FROM request_assignees a WHERE a.request_id = r.id AND a.admin_id = ${adminId})`,
    );
  return db()
    .all<{ id: number }>(
      sql`SELECT r.id AS id FROM requests_fts JOIN requests r ON r.id = requests_fts.rowid
          WHERE requests_fts MATCH ${match} AND ${sql.join(where, sql` AND `)}
          ORDER BY requests_fts.rank, r.created_at DESC, r.id DESC`,
    )
    .map((r) => r.id);
}

/** Every page of the list for a search, concatenated. */
function allPages(search: string, pageSize: number) {
  const first = listRequests(query(search), adminId, pageSize);
  const ids = first.items.map((r) => r.id);
  for (let page = 2; page <= first.totalPages; page++)
    ids.push(
      ...listRequests(query(`${search}&page=${page}`), adminId, pageSize).items.map((r) => r.id),
    );
  return { first, ids };
}

beforeAll(() => {
  const insertAdmin = (username: string) =>
    db()
      .insert(admins)
      .values({ username, email: `${username}@example.com`, passwordHash: "x" })
      .returning({ id: admins.id })
      .get().id;
  adminId = insertAdmin("suche-a");
  otherAdminId = insertAdmin("suche-b");
  for (let i = 0; i < 120; i++) {
    const id = db()
      .insert(requests)
      .values({
        name: `Kundin ${i}`,
        email: `kundin${i}@example.com`,
        phone: `+49 30 ${1000 + i}`,
        companyDescription: i % 4 === 0 ? "Zahnarztpraxis in Berlin" : "Handwerksbetrieb",
        description: TEXTS[i % TEXTS.length],
        status: STATUSES[i % 3],
        archived: i % 7 === 0,
        attributionSource: SOURCES[i % 3],
        // Some requests share a creation time: equal rank and time fall back to the id.
        createdAt: new Date(BASE + Math.floor(i / 2) * 60_000),
      })
      .returning({ id: requests.id })
      .get().id;
    if (i % 5 === 0) db().insert(requestAssignees).values({ requestId: id, adminId }).run();
    if (i % 5 === 1)
      db().insert(requestAssignees).values({ requestId: id, adminId: otherAdminId }).run();
  }
});

describe("listRequests search (FTS5 hits through requests_search_filter_idx)", () => {
  const searches = [
    "q=terminbuchung",
    "q=terminbuchung&status=New",
    "q=terminbuchung+praxis",
    "q=lagerverwaltung&tab=archived",
    "q=terminbuchung&source=google",
    "q=terminbuchung&assignment=assigned",
    "q=terminbuchung&assignment=unassigned&status=Done",
    "q=terminbuchung&tab=mine",
    "q=kundin",
  ];
  it.each(searches)("%s: ranking and count equal the plain query on every page", (search) => {
    const expected = reference(search);
    expect(expected.length).toBeGreaterThan(0);
    const { first, ids } = allPages(search, 7);
    expect(first.total).toBe(expected.length);
    expect(first.totalPages).toBe(Math.ceil(expected.length / 7));
    expect(ids).toEqual(expected);
  });

  it("ranks a short text with the term twice above a long text with it once", () => {
    const ids = listRequests(query("q=terminbuchung"), adminId, 100).items.map(
      (r) => r.description,
    );
    expect(ids[0]).toBe(TEXTS[1]);
    expect(ids.at(-1)).toBe(TEXTS[2]);
  });

  it("other sorts keep the search's hits and count", () => {
    const page = listRequests(query("q=terminbuchung&status=New&sort=oldest"), adminId, 100);
    expect(page.total).toBe(reference("q=terminbuchung&status=New").length);
    const times = page.items.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort());
    expect(new Set(page.items.map((r) => r.id))).toEqual(
      new Set(reference("q=terminbuchung&status=New")),
    );
  });

  it("a page past the end shows the last page; a term without hits shows none", () => {
    const total = reference("q=terminbuchung").length;
    const last = listRequests(query("q=terminbuchung&page=999"), adminId, 10);
    expect(last.page).toBe(Math.ceil(total / 10));
    expect(last.items).toHaveLength(total - (last.page - 1) * 10);
    expect(listRequests(query("q=gibtesnicht"), adminId)).toMatchObject({ total: 0, items: [] });
  });

  it("a deep page of the plain list is the slice of the full order", () => {
    const all = db()
      .all<{ id: number }>(
        sql`SELECT id FROM requests WHERE archived = 0 ORDER BY created_at ASC, id ASC`,
      )
      .map((r) => r.id);
    const page = listRequests(query("sort=oldest&page=4"), adminId, 9);
    expect(page.total).toBe(all.length);
    expect(page.items.map((r) => r.id)).toEqual(all.slice(27, 36));
  });

  it.each([
    ["sort=id-desc&page=3", "archived = 0", "DESC"],
    ["sort=id-asc&status=Done&page=2", "archived = 0 AND status = 'Done'", "ASC"],
    [
      "sort=id-desc&source=google&tab=archived",
      "archived = 1 AND attribution_source = 'google'",
      "DESC",
    ],
  ])("%s: the ID sorts page through the filtered rows in id order", (search, where, direction) => {
    const all = db()
      .all<{ id: number }>(
        sql.raw(`SELECT id FROM requests WHERE ${where} ORDER BY id ${direction}`),
      )
      .map((r) => r.id);
    const page = listRequests(query(search), adminId, 5);
    expect(page.total).toBe(all.length);
    const offset = (page.page - 1) * 5;
    expect(page.items.map((r) => r.id)).toEqual(all.slice(offset, offset + 5));
    expect(page.items.length).toBeGreaterThan(0);
  });
});

describe("getStats", () => {
  it("counts all, new (not archived) and archived requests", () => {
    const count = (where: string) =>
      db().get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM requests WHERE ${where}`))?.n;
    const stats = getStats();
    expect(stats.totalRequests).toBe(120);
    expect(stats.newRequests).toBe(count("status = 'New' AND archived = 0"));
    expect(stats.archivedRequests).toBe(count("archived = 1"));
    expect(stats.activeRequests).toBe(120 - stats.archivedRequests);
    expect(stats.newRequests).toBeGreaterThan(0);
  });
});
