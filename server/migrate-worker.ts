// Applies the database migrations in a child process (ADR 277; a process, not a worker
// thread: ADR 296): server/index.ts listens first and answers /healthz while a long backfill or
// index build runs here, off its event loop. Input: JSON in argv[2]; output: one JSON line.
// The settings match app/server/platform/db.server.ts; the server's own connection then finds nothing to do.
// A database a newer build migrated is refused (exit code 2, one German line on stderr); one with
// data is backed up before this build's migrations change it (ADR 323).
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { backupFileOf, backupsDirOf, pruneBackups } from "../db/backup-files.ts";
import {
  NewerSchemaError,
  recordSchemaVersion,
  refuseNewerSchema,
  upgradePending,
} from "../db/schema-version.ts";

const { databasePath, migrationsFolder, backupKeep } = JSON.parse(process.argv[2]) as {
  databasePath: string;
  migrationsFolder: string;
  /** BACKUP_KEEP: the backups kept beside the database (the one taken here included). */
  backupKeep?: number;
};
// Any failure (no folder, a failing migration): one line for the server's report, no stack trace.
process.on("uncaughtException", (error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
mkdirSync(path.dirname(databasePath), { recursive: true });
const sqlite = new Database(databasePath);
try {
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("secure_delete = ON");
  try {
    refuseNewerSchema(sqlite, migrationsFolder, databasePath);
  } catch (error) {
    if (!(error instanceof NewerSchemaError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  // `npm run backup`'s format and place, kept by BACKUP_KEEP: the way back from this upgrade.
  let backup: string | undefined;
  if (backupKeep && upgradePending(sqlite, migrationsFolder)) {
    backup = backupFileOf(databasePath);
    mkdirSync(backupsDirOf(databasePath), { recursive: true });
    try {
      await sqlite.backup(backup);
    } catch (error) {
      process.stderr.write(
        `Sicherung vor den Migrationen fehlgeschlagen (${error instanceof Error ? error.message : String(error)}): nichts migriert. Platz auf dem Datenträger schaffen oder BACKUP_KEEP senken.\n`,
      );
      process.exit(2);
    }
    pruneBackups(backupsDirOf(databasePath), backupKeep);
  }
  const started = performance.now();
  migrate(drizzle({ client: sqlite }), { migrationsFolder });
  recordSchemaVersion(sqlite, migrationsFolder);
  // Planner statistics, sampled as app/server/platform/db.server.ts does (ANALYSIS_LIMIT there).
  sqlite.pragma("analysis_limit = 1000");
  sqlite.pragma("optimize=0x10002");
  // The FTS5 shadow tables' estimate pinned (PIN_FTS_STATISTICS in app/server/platform/db.server.ts: taken
  // while the index is small, their statistics make FTS5's segment deletes scan the whole index).
  const stat = sqlite
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'")
    .get();
  if (stat)
    sqlite.exec(`DELETE FROM sqlite_stat1 WHERE tbl LIKE 'requests\\_fts\\_%' ESCAPE '\\';
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('requests_fts_data', NULL, '1000000');`);
  process.stdout.write(
    `${JSON.stringify({ ms: Math.round(performance.now() - started), ...(backup ? { backup } : {}) })}\n`,
  );
} finally {
  sqlite.close();
}
