import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { seedBenchRequests } from "./scripts/bench-admin-seed.ts";
const N = Number(process.argv[2]);
for (const variant of process.argv.slice(3)) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "seedt-")), "s.sqlite");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  migrate(drizzle({ client: db }), { migrationsFolder: variant === "before" ? "/tmp/i31a-before/db/migrations" : "db/migrations" });
  if (variant === "no-counts") for (const r of db.prepare("SELECT name FROM sqlite_schema WHERE type='trigger' AND name LIKE 'request_counts%'").all() as {name:string}[]) db.exec(`DROP TRIGGER ${r.name}`);
  if (variant === "no-dash") for (const r of db.prepare("SELECT name FROM sqlite_schema WHERE type='trigger' AND name LIKE 'dashboard_%'").all() as {name:string}[]) db.exec(`DROP TRIGGER ${r.name}`);
  db.close();
  const c = process.cpuUsage();
  const s = seedBenchRequests(file, N);
  const u = process.cpuUsage(c);
  console.log(variant, s.toFixed(1), "s wall", ((u.user + u.system) / 1e6).toFixed(1), "s cpu");
}
