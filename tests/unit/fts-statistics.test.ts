import { expect, it } from "vitest";
import { db } from "~/server/platform/db.server";

// ADR 288: PRAGMA optimize at boot on a new (empty) database recorded `requests_fts_data` with 2
// rows; the planner then scanned that table for FTS5's own range delete of merged segments, so
// every insert read the whole search index as it grew (seeding 100k requests 3–6× slower). After
// each optimize the FTS5 shadow tables get one fixed, large estimate instead.
it("pins the FTS5 shadow tables' planner estimate, so segment deletes use the rowid range", () => {
  const client = db().$client;
  const stats = client.prepare("SELECT * FROM sqlite_stat1 WHERE tbl LIKE 'requests_fts%'").all();
  expect(stats).toEqual([{ tbl: "requests_fts_data", idx: null, stat: "1000000" }]);
  // The statement FTS5 runs when it merges segments (fts5_index.c), as the planner sees it.
  const plan = client
    .prepare("EXPLAIN QUERY PLAN SELECT id FROM requests_fts_data WHERE id >= ? AND id <= ?")
    .all(1, 5) as { detail: string }[];
  expect(plan.map((r) => r.detail)).toEqual([
    "SEARCH requests_fts_data USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)",
  ]);
  // Other tables keep theirs (the list and dashboard plans need them).
  expect(client.prepare("SELECT count(*) AS n FROM sqlite_stat1").get()).not.toEqual({ n: 0 });
});
