import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { expect, it } from "vitest";

const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as {
  entries: { idx: number; tag: string }[];
};
function apply(sqlite: Database.Database, tag: string) {
  const text = readFileSync(`db/migrations/${tag}.sql`, "utf8");
  for (const statement of text.split("--> statement-breakpoint")) sqlite.exec(statement);
}

it("migration 0010 fills first_status_change_at from the history and the trigger keeps it", () => {
  const sqlite = new Database(":memory:");
  for (const entry of journal.entries.filter((e) => e.idx < 10)) apply(sqlite, entry.tag);
  const request = sqlite.prepare(
    "INSERT INTO requests (name, email, phone, company_description, created_at) VALUES ('A', 'a@example.com', '1', 'B', ?)",
  );
  const change = sqlite.prepare(
    "INSERT INTO request_status_history (request_id, to_status, changed_at) VALUES (?, 'Done', ?)",
  );
  const changed = Number(request.run(1_000).lastInsertRowid);
  const untouched = Number(request.run(2_000).lastInsertRowid);
  change.run(changed, 9_000);
  change.run(changed, 5_000); // the earliest, though written later

  apply(sqlite, journal.entries.find((e) => e.idx === 10)?.tag as string);
  const firstChange = (id: number) =>
    (
      sqlite.prepare("SELECT first_status_change_at AS at FROM requests WHERE id = ?").get(id) as {
        at: number | null;
      }
    ).at;
  expect(firstChange(changed)).toBe(5_000);
  expect(firstChange(untouched)).toBeNull();

  // After the migration the trigger keeps the earliest change.
  change.run(untouched, 4_000);
  change.run(untouched, 3_000);
  change.run(untouched, 8_000);
  change.run(changed, 7_000);
  expect(firstChange(untouched)).toBe(3_000);
  expect(firstChange(changed)).toBe(5_000);
  // The dashboard's median reads requests_first_change_idx in order of the delay.
  const plan = sqlite
    .prepare(
      "EXPLAIN QUERY PLAN SELECT (first_status_change_at - created_at) AS ms FROM requests INDEXED BY requests_first_change_idx WHERE (first_status_change_at - created_at) IS NOT NULL ORDER BY (first_status_change_at - created_at)",
    )
    .all() as { detail: string }[];
  expect(plan.map((p) => p.detail).join(" ")).not.toContain("TEMP B-TREE");
  sqlite.close();
});
