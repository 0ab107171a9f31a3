// Where `npm run backup` keeps its copies and how many stay (ADR 097): shared with the backup the
// server takes before it migrates a database with data (ADR 323, server/migrate-worker.ts).
// Relative imports only (the migration child is bundled from it, scripts run it as it is).
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { BACKUP_NAME } from "./schema-version.ts";

/** `<data dir>/backups`: beside the database, on the same volume. */
export const backupsDirOf = (databasePath: string) =>
  path.join(path.dirname(path.resolve(databasePath)), "backups");

/** A new backup's file: `<data dir>/backups/<ISO time with - for : and .>.sqlite`. */
export const backupFileOf = (databasePath: string, now = new Date()) =>
  path.join(backupsDirOf(databasePath), `${now.toISOString().replace(/[:.]/g, "-")}.sqlite`);

/**
 * Keeps the newest `keep` backups in `dir` (names sort by time) and removes the others with their
 * `-uploads` folders; returns how many went.
 */
export function pruneBackups(dir: string, keep: number): number {
  const old = readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .slice(0, -keep);
  for (const name of old) {
    rmSync(path.join(dir, name), { force: true });
    rmSync(path.join(dir, name.replace(/\.sqlite$/, "-uploads")), { recursive: true, force: true });
  }
  return old.length;
}
