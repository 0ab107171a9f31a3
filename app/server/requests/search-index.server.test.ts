import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import { eraseRequest } from "../privacy/erasure.server";

// The search index without a second copy of the text (ADR 289): requests_fts is an
// external-content FTS5 table over the view requests_search_text, kept by the triggers of
// migration 0020. A trigger that deletes with other values than were indexed corrupts it silently;
// FTS5's integrity-check (rank 1: against the content) and a rebuild find that. Random inserts,
// edits of every searched column, quarantines, erasures (delete and anonymise) and deletions, each
// followed by the check; a seeded generator (mulberry32) makes the runs reproducible.

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

const WORDS = ["Bäckerei", "Müller", "Öztürk", "Terminbuchung", "Zahnarzt", "Lager", "grün"];
const PHONES = ["+49 (30) 123-45", "030/98 76.5", "0171 2345678", ""];

const hits = (match: string) =>
  db()
    .all<{ id: number }>(
      sql`SELECT rowid AS id FROM requests_fts WHERE requests_fts MATCH ${match} ORDER BY rowid`,
    )
    .map((r) => r.id);

/** Every ranked hit of a few terms: what the list's search reads from the index. */
const ranked = () =>
  ['"backerei"', '"muller" AND "grun"', '"4930"*', '"zahn"*', '"oztu"*'].map((match) =>
    db().all(
      sql`SELECT rowid, rank FROM requests_fts WHERE requests_fts MATCH ${match} ORDER BY rank, rowid`,
    ),
  );

function integrityCheck() {
  db().run(sql`INSERT INTO requests_fts(requests_fts, rank) VALUES('integrity-check', 1)`);
}

async function randomSteps(random: () => number, steps: number) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const text = () => `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(random() * 1000)}`;
  for (let i = 0; i < steps; i++) {
    const existing = db()
      .select({ id: requests.id })
      .from(requests)
      .all()
      .map((r) => r.id);
    const id = pick(existing);
    const op = existing.length < 3 ? 0 : Math.floor(random() * 8);
    if (op <= 1) {
      db()
        .insert(requests)
        .values({
          name: text(),
          email: `index${i}@example.com`,
          phone: pick(PHONES),
          companyDescription: text(),
          description: text(),
          summary: random() < 0.5 ? text() : null,
          voiceTranscript: random() < 0.3 ? text() : null,
        })
        .run();
    } else if (op === 2) {
      const column = pick(["name", "phone", "companyDescription", "description"] as const);
      const value = column === "phone" ? pick(PHONES) : text();
      db()
        .update(requests)
        .set({ [column]: value })
        .where(eq(requests.id, id))
        .run();
    } else if (op === 3) {
      // The nullable columns, set and cleared (the AI summary, the transcript).
      db()
        .update(requests)
        .set({
          summary: random() < 0.5 ? null : text(),
          voiceTranscript: random() < 0.5 ? null : text(),
        })
        .where(eq(requests.id, id))
        .run();
    } else if (op === 4) {
      // A change of no searched column leaves the index alone.
      db().update(requests).set({ status: "Done" }).where(eq(requests.id, id)).run();
    } else if (op === 5) {
      // Quarantined or released (no searched column: the index stays).
      db()
        .update(requests)
        .set({ quarantinedAt: random() < 0.5 ? new Date() : null })
        .where(eq(requests.id, id))
        .run();
    } else if (op === 6) {
      expect((await eraseRequest(id, random() < 0.5 ? "delete" : "anonymize")).ok).toBe(true);
    } else {
      db().delete(requests).where(eq(requests.id, id)).run();
    }
    integrityCheck();
  }
}

describe("the external-content search index (ADR 289)", () => {
  it("keeps no copy of the text, only the index, and deletes securely", () => {
    const tables = db()
      .all<{ name: string }>(
        sql`SELECT name FROM sqlite_schema WHERE name LIKE 'requests_fts%' ORDER BY name`,
      )
      .map((t) => t.name);
    expect(tables).toEqual([
      "requests_fts",
      "requests_fts_ad",
      "requests_fts_ai",
      "requests_fts_au",
      "requests_fts_config",
      "requests_fts_data",
      "requests_fts_docsize",
      "requests_fts_idx",
    ]);
    expect(
      db().get<{ v: number }>(sql`SELECT v FROM requests_fts_config WHERE k = 'secure-delete'`)?.v,
    ).toBe(1);
  });

  for (const seed of [3, 31, 289]) {
    it(`matches its content after random changes, and a rebuild changes no hit or rank (seed ${seed})`, async () => {
      await randomSteps(generator(seed), 80);
      const before = ranked();
      expect(before.some((list) => list.length > 0)).toBe(true);
      db().run(sql`INSERT INTO requests_fts(requests_fts) VALUES('rebuild')`);
      integrityCheck();
      expect(ranked()).toEqual(before);
    });
  }

  it("finds the derived phone digits and folded diacritics, and forgets an erased row", async () => {
    const id = db()
      .insert(requests)
      .values({
        name: "Jördis Quellhuber",
        email: "joerdis@example.com",
        phone: "+49 (30) 555-12/34",
        companyDescription: "Café",
        voiceTranscript: "Sprachnachricht über Öffnungszeiten",
      })
      .returning({ id: requests.id })
      .get().id;
    expect(hits('"4930555"*')).toEqual([id]);
    expect(hits('"jordis" AND "offnungszeiten"')).toEqual([id]);
    expect((await eraseRequest(id, "anonymize")).ok).toBe(true);
    expect(hits('"quellhuber"')).toEqual([]);
    expect(hits('"offnungszeiten"')).toEqual([]);
    integrityCheck();
  });
});
