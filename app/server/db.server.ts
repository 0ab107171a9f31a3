import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "~db/schema";
import { cacheStatements } from "./db-statements.server";
import { env } from "./env.server";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

// Both app/server/ (dev, tests) and build/server/ (production bundle) sit two levels below the root.
const MIGRATIONS_DIR = fileURLToPath(new URL("../../db/migrations", import.meta.url));

let instance: Db | undefined;

/** Rows ANALYZE looks at per index (PRAGMA analysis_limit); server/migrate-worker.ts uses the same. */
export const ANALYSIS_LIMIT = 1000;

/** Opens the database once per process: pragmas set, migrations applied. */
export function db(): Db {
  if (instance) return instance;
  const file = path.resolve(env().DATABASE_PATH);
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // Deleted content is overwritten with zeros, not left in free pages (erasure, ADR 100).
  sqlite.pragma("secure_delete = ON");
  const database = drizzle({ client: sqlite, schema }) as Db;
  migrate(database, { migrationsFolder: MIGRATIONS_DIR });
  // Statistics for the query planner after the migrations, so a grown table keeps its index
  // choices and the dashboard its skip-scans (issue 31); again daily (optimizeDaily). Sampled
  // (analysis_limit): ~0.25 s instead of ~2 s for the first ANALYZE of 100k requests.
  sqlite.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  sqlite.pragma("optimize=0x10002");
  // Every query after the migrations reuses its prepared statement (ADR 167).
  cacheStatements(sqlite);
  instance = database;
  return database;
}

/** Runs fn in one IMMEDIATE transaction (synchronous, as better-sqlite3 is). */
export function transaction<T>(fn: (tx: Db) => T): T {
  const database = db();
  return database.$client.transaction(() => fn(database)).immediate();
}

let optimizer: ReturnType<typeof setInterval> | undefined;
/** `PRAGMA optimize` once a day (SQLite's advice for long-lived connections). */
export function optimizeDaily() {
  optimizer ??= setInterval(() => {
    try {
      db().$client.pragma("optimize");
    } catch (error) {
      console.warn(
        "PRAGMA optimize fehlgeschlagen:",
        error instanceof Error ? error.message : error,
      );
    }
  }, 86_400_000);
  optimizer.unref();
}

export function stopOptimizer() {
  if (optimizer) clearInterval(optimizer);
  optimizer = undefined;
}

export function closeDb() {
  if (!instance) return;
  instance.$client.close();
  instance = undefined;
}

/** For /healthz: true when the database answers. */
export function pingDb(): boolean {
  try {
    return db().$client.prepare("SELECT 1 AS ok").get() !== undefined;
  } catch {
    return false;
  }
}
