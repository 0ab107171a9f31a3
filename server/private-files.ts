// Private files (ADR 324): what the server and its tools write — the database with its WAL and
// shared memory, the session secret, uploads and their temporary files, backups, markers — is
// readable by its own user only. A umask of 077 makes every file they create 0600 and every
// folder 0700 (the migration and calendar children and Litestream inherit it); what an older
// version left open in the data directory is closed once at start.
import { chmodSync, existsSync, statSync } from "node:fs";
import path from "node:path";

export const PRIVATE_UMASK = 0o077;

function tighten(file: string, mode: number) {
  try {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, mode);
  } catch {
    // Not ours to change (another owner): the start goes on.
  }
}

/**
 * Sets the umask of this process (and so of its children) and closes the files of an older
 * version: the database files and the session secret 0600, the uploads, quarantine and backup
 * folders 0700 (closed folders keep everything below them private; the data folder itself may be
 * shared, e.g. `db/` of a checkout, and is left as it is).
 */
export function privateFiles(databasePath?: string, uploadsDir?: string) {
  process.umask(PRIVATE_UMASK);
  if (databasePath) {
    const database = path.resolve(databasePath);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) tighten(`${database}${suffix}`, 0o600);
    const dataDir = path.dirname(database);
    tighten(path.join(dataDir, ".session-secret"), 0o600);
    tighten(path.join(dataDir, "backups"), 0o700);
  }
  if (uploadsDir) {
    const uploads = path.resolve(uploadsDir);
    tighten(uploads, 0o700);
    tighten(`${uploads}-quarantaene`, 0o700);
  }
}
