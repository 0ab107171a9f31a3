import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_STAGES } from "~/lib/pipeline";
import { admins, requestAssignees, requests } from "~db/schema";
import { patchConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { eraseRequest } from "../privacy/erasure.server";
import { BOARD_CARDS, boardView } from "./board.server";

// Property test of the trigger-kept stage counts (ADR 347): random inserts, stage moves,
// archives, holds and releases, (un)assignments, erasures and admin deletions; after each round
// every column of the board (all, and each admin's) equals count(*) over the rows, and its cards
// are the newest of the column. A seeded generator makes the runs reproducible.

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
      username: `board-${adminSeq}`,
      email: `board-${adminSeq}@example.com`,
      passwordHash: "x",
    })
    .returning({ id: admins.id })
    .get().id;
}

const stageIds = DEFAULT_STAGES.map((s) => s.id);

/** count(*) of a column, the way the board's WHERE states it (the reference). */
function reference(stage: string, adminId: number | null): number {
  const mine = adminId
    ? sql`AND EXISTS (SELECT 1 FROM request_assignees a WHERE a.request_id = requests.id AND a.admin_id = ${adminId})`
    : sql``;
  return (
    db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM requests WHERE archived = 0 AND quarantined_at IS NULL AND stage = ${stage} ${mine}`,
    )?.n ?? 0
  );
}

async function randomSteps(random: () => number, steps: number, adminIds: number[]) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  for (let i = 0; i < steps; i++) {
    const existing = db()
      .select({ id: requests.id })
      .from(requests)
      .all()
      .map((r) => r.id);
    const op = existing.length < 3 ? 0 : Math.floor(random() * 8);
    const id = pick(existing);
    switch (op) {
      case 0:
      case 1: {
        const stage = pick(DEFAULT_STAGES);
        db()
          .insert(requests)
          .values({
            name: "Prop",
            email: `prop${i}@example.com`,
            phone: "0301234567",
            companyDescription: "Firma",
            stage: stage.id,
            status: stage.status,
            archived: random() < 0.2,
            quarantinedAt: random() < 0.15 ? new Date() : null,
            createdAt: new Date(Date.now() - Math.floor(random() * 1e9)),
          })
          .run();
        break;
      }
      case 2: {
        const stage = pick(DEFAULT_STAGES);
        db()
          .update(requests)
          .set({ stage: stage.id, status: stage.status })
          .where(eq(requests.id, id))
          .run();
        break;
      }
      case 3:
        db()
          .update(requests)
          .set(
            random() < 0.5
              ? { archived: random() < 0.5 }
              : { quarantinedAt: random() < 0.5 ? new Date() : null },
          )
          .where(eq(requests.id, id))
          .run();
        break;
      case 4:
        db()
          .insert(requestAssignees)
          .values({ requestId: id, adminId: pick(adminIds) })
          .onConflictDoNothing()
          .run();
        break;
      case 5:
        db()
          .delete(requestAssignees)
          .where(
            and(eq(requestAssignees.requestId, id), eq(requestAssignees.adminId, pick(adminIds))),
          )
          .run();
        break;
      case 6:
        expect((await eraseRequest(id, random() < 0.5 ? "delete" : "anonymize")).ok).toBe(true);
        break;
      default:
        // Several moves in one statement.
        db()
          .update(requests)
          .set({ stage: "won", status: "Done" })
          .where(sql`${requests.id} % 5 = ${Math.floor(random() * 5)}`)
          .run();
    }
  }
}

function expectBoard(adminIds: number[]) {
  for (const adminId of [null, ...adminIds]) {
    const board = boardView(adminId);
    for (const column of board.columns) {
      const expected = reference(column.stage.id, adminId);
      expect(column.count, `${column.stage.id} admin ${adminId}`).toBe(expected);
      expect(column.items.length).toBe(Math.min(expected, BOARD_CARDS));
      const newest = db()
        .all<{ id: number }>(
          sql`SELECT id FROM requests WHERE archived = 0 AND quarantined_at IS NULL AND stage = ${column.stage.id}
              ${adminId ? sql`AND id IN (SELECT request_id FROM request_assignees WHERE admin_id = ${adminId})` : sql``}
              ORDER BY created_at DESC, id DESC LIMIT ${BOARD_CARDS}`,
        )
        .map((r) => r.id);
      expect(column.items.map((item) => item.id)).toEqual(newest);
    }
  }
}

describe("trigger-kept stage counts and the board", () => {
  for (const seed of [3, 42, 2027]) {
    it(`every column equals count(*) after random changes (seed ${seed})`, async () => {
      const random = generator(seed);
      const adminIds = [newAdmin(), newAdmin()];
      for (let round = 0; round < 4; round++) {
        await randomSteps(random, 50, adminIds);
        if (round === 1) {
          const gone = adminIds.pop() as number;
          db().delete(admins).where(eq(admins.id, gone)).run();
          adminIds.push(newAdmin());
        }
        expectBoard(adminIds);
      }
    });
  }

  it("a stage no longer configured shows its requests in the first stage of their status", () => {
    const insert = (stage: string, status: "New" | "In Progress" | "Done") =>
      db()
        .insert(requests)
        .values({
          name: "Alt",
          email: "alt@example.com",
          phone: "1",
          companyDescription: "F",
          stage,
          status,
        })
        .returning({ id: requests.id })
        .get().id;
    const before = boardView();
    const count = (stage: string, board = boardView()) =>
      board.columns.find((c) => c.stage.id === stage)?.count ?? 0;
    const a = insert("vertrag", "In Progress");
    const b = insert("vertrag", "Done");
    const after = boardView();
    expect(count("contacted", after)).toBe(count("contacted", before) + 1);
    expect(count("won", after)).toBe(count("won", before) + 1);
    expect(after.columns.find((c) => c.stage.id === "contacted")?.items.map((i) => i.id)).toContain(
      a,
    );
    expect(after.columns.find((c) => c.stage.id === "won")?.items.map((i) => i.id)).toContain(b);
    expect(stageIds).not.toContain("vertrag");
  });

  it("refuses to remove a stage that holds requests, or to change its status", () => {
    const id = db()
      .insert(requests)
      .values({
        name: "Offen",
        email: "o@example.com",
        phone: "1",
        companyDescription: "F",
        stage: "offer",
        status: "In Progress",
        archived: true,
      })
      .returning({ id: requests.id })
      .get().id;
    const without = DEFAULT_STAGES.filter((s) => s.id !== "offer");
    const removed = patchConfiguration({ pipeline: { stages: without } });
    expect(removed.ok).toBe(false);
    expect(removed.ok ? null : removed.fieldErrors?.["pipeline.stages"]?.[0]).toMatch(
      /„Angebot“ enthält noch \d+ Anfragen? – verschieben Sie sie zuerst/,
    );
    const changed = patchConfiguration({
      pipeline: {
        stages: DEFAULT_STAGES.map((s) => (s.id === "offer" ? { ...s, status: "Done" } : s)),
      },
    });
    expect(changed.ok ? null : changed.fieldErrors?.["pipeline.stages.4.status"]?.[0]).toMatch(
      /ihr Status kann erst geändert werden/,
    );
    // Renamed and moved: fine, its requests stay in it.
    const renamed = patchConfiguration({
      pipeline: {
        stages: [
          ...without.slice(0, 1),
          { ...DEFAULT_STAGES[4], name: "Angebot geschickt" },
          ...without.slice(1),
        ],
      },
    });
    expect(renamed.ok).toBe(true);
    db().update(requests).set({ stage: "won", status: "Done" }).where(eq(requests.id, id)).run();
    db()
      .update(requests)
      .set({ stage: "won", status: "Done" })
      .where(eq(requests.stage, "offer"))
      .run();
    expect(patchConfiguration({ pipeline: { stages: without } }).ok).toBe(true);
    expect(patchConfiguration({ pipeline: { stages: DEFAULT_STAGES } }).ok).toBe(true);
  });
});
