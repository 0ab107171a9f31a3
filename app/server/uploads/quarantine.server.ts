import { existsSync } from "node:fs";
import { cp, mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { env } from "../platform/env.server";

/** How long files set aside after a database restore are kept before they are deleted. */
export const QUARANTINE_DAYS = 30;

/** Written beside the database by `npm run restore` and the boot-time Litestream restore. */
export function restoreMarkerPath(databasePath = env().DATABASE_PATH) {
  return `${path.resolve(databasePath)}.restored`;
}

export const restorePending = () => existsSync(restoreMarkerPath());
export const clearRestoreMarker = () => rm(restoreMarkerPath(), { force: true });

/** Outside UPLOADS_DIR (a sibling folder), so no sweep of the uploads ever touches it. */
export function quarantineRoot() {
  return `${path.resolve(env().UPLOADS_DIR)}-quarantaene`;
}

/** A folder for this run's quarantined files: `<root>/<epoch ms>`. */
export async function newQuarantineFolder(now = Date.now()) {
  const dir = path.join(quarantineRoot(), String(now));
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Moves a file into the quarantine folder (copy + remove when on another file system). */
export async function moveToQuarantine(file: string, folder: string) {
  const target = path.join(folder, path.basename(file));
  try {
    await rename(file, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await cp(file, target);
    await rm(file, { force: true });
  }
}

/** Deletes quarantine folders older than QUARANTINE_DAYS; returns how many. */
export async function expireQuarantine(now = Date.now()): Promise<number> {
  const root = quarantineRoot();
  const limit = now - QUARANTINE_DAYS * 86_400_000;
  let removed = 0;
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!/^\d+$/.test(name) || Number(name) >= limit) continue;
    try {
      await rm(path.join(root, name), { recursive: true, force: true });
      removed += 1;
    } catch (error) {
      console.warn("Quarantäne-Ordner konnte nicht gelöscht werden:", (error as Error).message);
    }
  }
  return removed;
}
