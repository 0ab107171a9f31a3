// Captures the planner statistics (sqlite_stat1) the query-plan test loads (db/query-plan-stats.json):
// seeds BENCH_REQUESTS (default 100,000) requests like `npm run bench:admin` into a migrated
// temporary database, runs ANALYZE and scales the row counts to SCALE_TO (default 1,000,000), so
// the test plans as against the 1M seed (a test database has no statistics of its own).
//   node scripts/capture-query-stats.ts
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { seedBenchRequests } from "./bench-admin-seed.ts";

const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const SCALE_TO = Number(process.env.SCALE_TO ?? 1_000_000);
const file = path.join(mkdtempSync(path.join(tmpdir(), "query-stats-")), "stats.sqlite");
const setup = new Database(file);
setup.pragma("journal_mode = WAL");
migrate(drizzle({ client: setup }), { migrationsFolder: "db/migrations" });
setup.close();
console.log(`Seeded ${COUNT} in ${seedBenchRequests(file, COUNT).toFixed(1)} s`);
const sqlite = new Database(file);
sqlite.exec("ANALYZE");
const factor = SCALE_TO / COUNT;
// Only the tables the seed fills in proportion to the requests grow (request_counts, admins … not).
const GROWING = /^(requests|requests_fts_.*|request_status_history|appointments)$/;
// "nRow avg1 avg2 …": the row count and the rows per distinct key prefix. Both grow with the table
// for non-unique prefixes; a prefix that is (nearly) unique keeps its 1.
const rows = (
  sqlite.prepare("SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx").all() as {
    tbl: string;
    idx: string | null;
    stat: string;
  }[]
).map((row) => {
  const [numbers, ...flags] = row.stat
    .split(" ")
    .reduce<[string[], string[]]>(
      ([n, f], part) => (/^\d+$/.test(part) ? [[...n, part], f] : [n, [...f, part]]),
      [[], []],
    );
  const scaled = numbers.map((n) => {
    const value = Number(n);
    return String(value > 1 && GROWING.test(row.tbl) ? Math.round(value * factor) : value);
  });
  return { ...row, stat: [...scaled, ...flags].join(" ") };
});
sqlite.close();
writeFileSync(
  "db/query-plan-stats.json",
  `${JSON.stringify({ seeded: COUNT, scaledTo: SCALE_TO, sqlite_stat1: rows }, null, 2)}\n`,
);
console.log(`db/query-plan-stats.json: ${rows.length} rows`);
