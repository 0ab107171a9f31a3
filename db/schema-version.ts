// The schema version a database was migrated to (ADR 323): `PRAGMA user_version` holds the number
// of migrations applied by the build that migrated it last. A build that knows fewer refuses to
// touch it (an older build would run on a newer schema: no 2FA rule, settings saves that wipe
// newer settings). Shared by the migration child (server/migrate-worker.ts), the server's own
// connection (app/server/platform/db.server.ts) and `npm run db:migrate`; relative imports only.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";

type Journal = { entries: { idx: number; when: number; tag: string }[] };

const journalOf = (migrationsFolder: string) =>
  JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as Journal;

/** The schema version this build migrates to: the number of its migrations. */
export function knownSchemaVersion(migrationsFolder: string): number {
  return journalOf(migrationsFolder).entries.length;
}

/** The version a database file was migrated to, read from its header (0 when none or unreadable). */
export function fileSchemaVersion(file: string): number {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const header = Buffer.alloc(64);
    if (readSync(fd, header, 0, 64, 0) < 64) return 0;
    // SQLite's header: the user version is the big-endian 32-bit integer at offset 60.
    return header.readInt32BE(60);
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `npm run backup`'s file names (scripts/backup.ts): `<data dir>/backups/<ISO time>.sqlite`. */
export const BACKUP_NAME = /^\d{4}-\d\d-\d\dT[\d-]+Z\.sqlite$/;

/** The newest backup beside the database that this build can run on, or null. */
function backupToRestore(databasePath: string, known: number): string | null {
  const dir = path.join(path.dirname(path.resolve(databasePath)), "backups");
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => BACKUP_NAME.test(name));
  } catch {
    return null;
  }
  for (const name of names.sort().reverse()) {
    const file = path.join(dir, name);
    if (fileSchemaVersion(file) <= known) return file;
  }
  return null;
}

/**
 * Throws the one German line naming the way back when the database was migrated by a newer build
 * (its version above `known`): restore the backup taken before the upgrade.
 */
export function refuseNewerSchema(
  sqlite: Database.Database,
  migrationsFolder: string,
  databasePath: string,
) {
  const known = knownSchemaVersion(migrationsFolder);
  const found = Number(sqlite.pragma("user_version", { simple: true }));
  if (found <= known) return;
  const backup = backupToRestore(databasePath, known);
  const way = backup
    ? `npm run restore -- ${backup} (docs/operations.md, „Upgrade and roll back“)`
    : "npm run restore -- <Sicherung> (docs/operations.md, „Upgrade and roll back“)";
  throw new NewerSchemaError(
    `Die Datenbank stammt von einer neueren Version des Anfrage-Portals (Schema ${found}, diese Version kennt ${known}) und wird nicht angefasst. Zurück geht es nur mit der Sicherung von vor dem Update: ${way}.`,
  );
}

export class NewerSchemaError extends Error {
  override name = "NewerSchemaError";
}

/** After the migrations: the database carries this build's version. */
export function recordSchemaVersion(sqlite: Database.Database, migrationsFolder: string) {
  const known = knownSchemaVersion(migrationsFolder);
  if (Number(sqlite.pragma("user_version", { simple: true })) < known)
    sqlite.pragma(`user_version = ${known}`);
}

/**
 * Whether the database already holds a schema (migrations applied before) and this build has
 * migrations it has not: then it has data a failed or unwanted upgrade could cost.
 */
export function upgradePending(sqlite: Database.Database, migrationsFolder: string): boolean {
  const table = sqlite
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!table) return false;
  const last = sqlite.prepare("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as {
    at: number | null;
  };
  if (last.at === null) return false;
  // drizzle applies each migration whose folder time is after the last one applied.
  return journalOf(migrationsFolder).entries.some((entry) => entry.when > Number(last.at));
}
