import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  ASSIGNMENT_FILTERS,
  parseRequestListQuery,
  REQUEST_STATUSES,
  REQUEST_TABS,
  SEARCH_RESULT_CAP,
} from "~/lib/request-list";
import { admins, requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { eraseRequest } from "../privacy/erasure.server";
import { countListBucket, countQuarantinedRequests, countStoredRequests } from "./counts.server";
import { getStats, listRequestIds } from "./queries.server";

// Property test of the trigger-kept counts (ADR 275): random sequences of inserts, status changes,
// archives, quarantines and releases, (un)assignments, erasures (delete and anonymise) and admin
// deletions; after each sequence every list bucket equals count(*) over the rows. fast-check is not
// a dependency: a seeded generator (mulberry32) makes the runs reproducible, the seed is in the name.

function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let adminSeq = 0;
function newAdmin(): number {
  adminSeq += 1;
  return db()
    .insert(admins)
    .values({
      username: `counts-${adminSeq}`,
      email: `counts-${adminSeq}@example.com`,
      passwordHash: "x",
    })
    .returning({ id: admins.id })
    .get().id;
}

/** count(*) of a list bucket, the way the list's WHERE states it (the reference). */
function reference(tab: string, status: string, assignment: string, adminId: number): number {
  const where = [
    tab === "quarantine"
      ? sql`quarantined_at IS NOT NULL`
      : sql`quarantined_at IS NULL AND archived = ${tab === "archived" ? 1 : 0}`,
  ];
  if (status) where.push(sql`status = ${status}`);
  const assigned = sql`EXISTS (SELECT 1 FROM request_assignees a WHERE a.request_id = requests.id)`;
  if (tab === "mine")
    where.push(
      sql`EXISTS (SELECT 1 FROM request_assignees a WHERE a.request_id = requests.id AND a.admin_id = ${adminId})`,
    );
  if (assignment === "assigned") where.push(assigned);
  if (assignment === "unassigned") where.push(sql`NOT ${assigned}`);
  return (
    db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM requests WHERE ${sql.join(where, sql` AND `)}`,
    )?.n ?? 0
  );
}

async function randomSteps(random: () => number, steps: number, adminIds: number[]) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const ids = () =>
    db()
      .select({ id: requests.id })
      .from(requests)
      .all()
      .map((r) => r.id);
  for (let i = 0; i < steps; i++) {
    const existing = ids();
    const op = existing.length < 3 ? 0 : Math.floor(random() * 9);
    const id = pick(existing);
    switch (op) {
      case 0:
      case 1:
        db()
          .insert(requests)
          .values({
            name: "Prop",
            email: `prop${i}@example.com`,
            phone: "0301234567",
            companyDescription: "Firma",
            status: pick(REQUEST_STATUSES),
            archived: random() < 0.2,
            quarantinedAt: random() < 0.15 ? new Date() : null,
          })
          .run();
        break;
      case 2:
        db()
          .update(requests)
          .set({ status: pick(REQUEST_STATUSES) })
          .where(eq(requests.id, id))
          .run();
        break;
      case 3:
        db()
          .update(requests)
          .set({ archived: random() < 0.5 })
          .where(eq(requests.id, id))
          .run();
        break;
      case 4:
        db()
          .update(requests)
          .set({ quarantinedAt: random() < 0.5 ? new Date() : null })
          .where(eq(requests.id, id))
          .run();
        break;
      case 5:
        db()
          .insert(requestAssignees)
          .values({ requestId: id, adminId: pick(adminIds) })
          .onConflictDoNothing()
          .run();
        break;
      case 6:
        db()
          .delete(requestAssignees)
          .where(
            and(eq(requestAssignees.requestId, id), eq(requestAssignees.adminId, pick(adminIds))),
          )
          .run();
        break;
      case 7:
        // The app's erasure: deleted, or anonymised (the row stays, its content goes).
        expect((await eraseRequest(id, random() < 0.5 ? "delete" : "anonymize")).ok).toBe(true);
        break;
      default:
        // Several changes in one statement (a bulk archive).
        db()
          .update(requests)
          .set({ archived: true, status: "Done" })
          .where(sql`${requests.id} % 4 = ${Math.floor(random() * 4)}`)
          .run();
    }
  }
}

describe("trigger-kept request counts", () => {
  for (const seed of [1, 7, 31, 2026]) {
    it(`equal count(*) for every list bucket after random changes (seed ${seed})`, async () => {
      const random = generator(seed);
      const adminIds = [newAdmin(), newAdmin(), newAdmin()];
      for (let round = 0; round < 4; round++) {
        await randomSteps(random, 40, adminIds);
        if (round === 2) {
          // An admin deleted: their assignments go (ON DELETE CASCADE), and so does their bucket.
          const gone = adminIds.pop() as number;
          db().delete(admins).where(eq(admins.id, gone)).run();
          adminIds.push(newAdmin());
        }
        for (const tab of REQUEST_TABS) {
          for (const status of ["", ...REQUEST_STATUSES]) {
            for (const assignment of ["", ...ASSIGNMENT_FILTERS]) {
              for (const adminId of adminIds) {
                const params = new URLSearchParams({ tab, status, assignment });
                const query = parseRequestListQuery(params);
                const expected = reference(tab, status, assignment, adminId);
                expect(countListBucket(query, adminId), `${params} admin ${adminId}`).toBe(
                  expected,
                );
                expect(listRequestIds(query, adminId).total).toBe(expected);
              }
            }
          }
        }
        const total = db().get<{ n: number }>(sql`SELECT count(*) AS n FROM requests`)?.n;
        expect(countStoredRequests()).toBe(total);
        expect(countQuarantinedRequests()).toBe(reference("quarantine", "", "", 0));
        const stats = getStats();
        expect(stats.totalRequests).toBe(
          reference("active", "", "", 0) + reference("archived", "", "", 0),
        );
        expect(stats.archivedRequests).toBe(reference("archived", "", "", 0));
        expect(stats.newRequests).toBe(reference("active", "New", "", 0));
      }
    });
  }

  it("refuse an UPDATE of an assignment (rows are deleted and inserted)", () => {
    const adminId = newAdmin();
    const id = db()
      .insert(requests)
      .values({ name: "A", email: "a@example.com", phone: "1", companyDescription: "B" })
      .returning({ id: requests.id })
      .get().id;
    db().insert(requestAssignees).values({ requestId: id, adminId }).run();
    expect(() =>
      db()
        .update(requestAssignees)
        .set({ adminId: newAdmin() })
        .where(eq(requestAssignees.requestId, id))
        .run(),
    ).toThrow(/never updated/);
  });
});

describe("a search over more hits than the cap (ADR 276)", () => {
  it("lists and counts the first SEARCH_RESULT_CAP hits and says it is capped", () => {
    const insert = db().$client.prepare(
      "INSERT INTO requests (name, email, phone, company_description, description) VALUES ('K', 'k@example.com', '1', 'Firma', ?)",
    );
    db().$client.transaction(() => {
      for (let i = 0; i < SEARCH_RESULT_CAP + 5; i++) insert.run(`Kappungstest Nummer ${i}`);
    })();
    const page = (search: string) =>
      listRequestIds(parseRequestListQuery(new URLSearchParams(search)), 1);
    const first = page("q=kappungstest");
    expect(first).toMatchObject({ total: SEARCH_RESULT_CAP, totalIsCapped: true, totalPages: 50 });
    expect(first.ids).toHaveLength(20);
    const newest = page("q=kappungstest&sort=id-desc");
    const maxId = db().get<{ id: number }>(sql`SELECT max(id) AS id FROM requests`)?.id as number;
    expect(newest.ids[0]).toBe(maxId);
    // Past the last page: the last page of the capped list.
    expect(page("q=kappungstest&sort=id-asc&page=99")).toMatchObject({
      page: 50,
      totalIsCapped: true,
    });
    const few = page("q=kappungstest nummer 1000");
    expect(few).toMatchObject({ totalIsCapped: false });
    expect(few.total).toBeLessThan(SEARCH_RESULT_CAP);
  });
});
