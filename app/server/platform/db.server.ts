import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "~db/schema";
import { recordSchemaVersion, refuseNewerSchema } from "~db/schema-version";
import { cacheStatements } from "./db-statements.server";
import { env } from "./env.server";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

// The project root is the nearest folder above this module with db/migrations: app/server/platform/
// in dev and tests, build/server/ in the production bundle. MIGRATIONS_DIR (tests of the start-up)
// is the migration child's folder (server/startup.ts), so both agree on the schema version.
const MIGRATIONS_DIR =
  process.env.MIGRATIONS_DIR ?? migrationsFolder(path.dirname(fileURLToPath(import.meta.url)));

function migrationsFolder(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "db", "migrations");
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error("db/migrations not found");
  }
}

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
  // The temporary database (a search export's hit table, materialised subqueries) keeps at most
  // 2 MB of pages in memory and spills the rest to its file; SQLite's default is 16 MB beside the
  // main cache's 16 MB, which a search export at 1M kept resident for good (256 MB at 1M requests).
  sqlite.pragma("temp.cache_size = -2048");
  const database = drizzle({ client: sqlite, schema }) as Db;
  // A database a newer build migrated is not touched: one German line naming the way back (ADR 323).
  try {
    refuseNewerSchema(sqlite, MIGRATIONS_DIR, file);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  migrate(database, { migrationsFolder: MIGRATIONS_DIR });
  recordSchemaVersion(sqlite, MIGRATIONS_DIR);
  // Statistics for the query planner after the migrations, so a grown table keeps its index
  // choices and the dashboard its skip-scans (ADR 288); again daily (optimizeDaily). Sampled
  // (analysis_limit): ~0.25 s instead of ~2 s for the first ANALYZE of 100k requests.
  sqlite.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  optimize(sqlite, "optimize=0x10002");
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

/**
 * Replaces the statistics of the FTS5 shadow tables by one fixed estimate and reloads them;
 * server/migrate-worker.ts runs the same SQL. Taken while the search index was small (a new
 * installation: ANALYZE at boot sees `requests_fts_data` with 2 rows), they made the planner scan
 * that table for FTS5's own `DELETE … WHERE id >= ? AND id <= ?` of merged segments: every insert
 * then read the whole search index as it grew (ADR 288: seeding 100k requests 3–6× slower).
 * With a large estimate SQLite takes the rowid range, as FTS5 expects. (Deleting the rows is not
 * enough: a connection keeps a table's estimate until its schema is reloaded.)
 */
const PIN_FTS_STATISTICS = `DELETE FROM sqlite_stat1 WHERE tbl LIKE 'requests\\_fts\\_%' ESCAPE '\\';
INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('requests_fts_data', NULL, '1000000');
ANALYZE sqlite_schema;`;

/** PRAGMA optimize (`pragma`), then the FTS5 shadow tables' estimate pinned. */
function optimize(sqlite: Database.Database, pragma: string) {
  sqlite.pragma(pragma);
  const stat = sqlite
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'")
    .get();
  if (stat) sqlite.exec(PIN_FTS_STATISTICS);
}

let optimizer: ReturnType<typeof setInterval> | undefined;
/** `PRAGMA optimize` once a day (SQLite's advice for long-lived connections). */
export function optimizeDaily() {
  optimizer ??= setInterval(() => {
    try {
      optimize(db().$client, "optimize");
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
