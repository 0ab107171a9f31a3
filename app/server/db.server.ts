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
