import { type Dirent, mkdirSync } from "node:fs";
import { readdir, readFile, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { isNotNull } from "drizzle-orm";
import { attachments, requests } from "~db/schema";
import { referencedLogoKey } from "../branding/logo.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { storagePaths, TEMP_SUFFIX } from "../storage/fs-storage.server";
import { fileStorage } from "../storage/storage.server";
import {
  clearRestoreMarker,
  expireQuarantine,
  moveToQuarantine,
  newQuarantineFolder,
  QUARANTINE_DAYS,
  restorePending,
} from "./quarantine.server";

export type SweepOptions = {
  /** Only files last written before this instant are touched (epoch ms). */
  cutoff: number;
  /** Move unreferenced stored files here instead of deleting them (after a database restore). */
  quarantine?: string;
};

const STORED = /^([0-9a-f]+)\.(dat|meta\.json)$/;

/** Every storage key a row refers to (attachments and voice recordings) and the brand's logo. */
function referencedKeys() {
  const logo = referencedLogoKey();
  return new Set<string>([
    ...(logo ? [logo] : []),
    ...db()
      .select({ key: attachments.filename })
      .from(attachments)
      .all()
      .map((r) => r.key),
    ...db()
      .select({ key: requests.audioKey })
      .from(requests)
      .where(isNotNull(requests.audioKey))
      .all()
      .map((r) => r.key as string),
  ]);
}

/** Logs what was removed and why: file counts only, never names or contents (personal data). */
function warn(what: string, error?: unknown) {
  const reason = error instanceof Error ? ` (${error.name})` : "";
  console.warn(`Upload-Aufräumen: ${what}${reason}`);
}

async function mtime(file: string) {
  return (await stat(file).catch(() => null))?.mtimeMs;
}

/** Removes partial files in UPLOADS_DIR/incoming written before the cutoff. */
async function sweepIncoming(cutoff: number): Promise<number> {
  const dir = path.join(path.resolve(env().UPLOADS_DIR), "incoming");
  mkdirSync(dir, { recursive: true });
  let removed = 0;
  for (const name of await readdir(dir)) {
    try {
      const file = path.join(dir, name);
      const modified = await mtime(file);
      if (modified === undefined || modified >= cutoff) continue;
      await rm(file, { force: true, recursive: true });
      removed += 1;
    } catch (error) {
      warn("ein Teil-Upload konnte nicht entfernt werden", error);
    }
  }
  return removed;
}

type Meta = { key: string; lastModified: number };
async function readMeta(file: string, root: string, hash: string): Promise<Meta | null> {
  try {
    const meta = JSON.parse(await readFile(file, "utf8")) as Partial<Meta>;
    if (typeof meta.key !== "string" || typeof meta.lastModified !== "number") return null;
    // The file must be where the key says (a copied or renamed file is not ours to trust).
    return storagePaths(root, meta.key).metaPath.endsWith(`${hash}.meta.json`)
      ? (meta as Meta)
      : null;
  } catch {
    return null;
  }
}

/** One `<root>/<xx>/` folder of the fs storage; returns how many stored entries were removed. */
async function sweepShard(
  root: string,
  dir: string,
  referenced: Set<string>,
  options: SweepOptions,
  referencedHashes: Set<string>,
): Promise<number> {
  const { cutoff, quarantine } = options;
  const hashes = new Map<string, { dat: boolean; meta: boolean }>();
  let removed = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(dir, entry.name);
    if (entry.name.endsWith(TEMP_SUFFIX)) {
      // A write that never finished (crash): never renamed into place.
      const modified = await mtime(file);
      if (modified !== undefined && modified < cutoff) {
        await rm(file, { force: true }).then(
          () => warn("eine unvollständig geschriebene Datei wurde entfernt"),
          (error) => warn("eine unvollständige Datei konnte nicht entfernt werden", error),
        );
      }
      continue;
    }
    const match = STORED.exec(entry.name);
    if (!match) continue;
    const seen = hashes.get(match[1]) ?? { dat: false, meta: false };
    seen[match[2] === "dat" ? "dat" : "meta"] = true;
    hashes.set(match[1], seen);
  }
  for (const [hash, seen] of hashes) {
    const datPath = path.join(dir, `${hash}.dat`);
    const metaPath = path.join(dir, `${hash}.meta.json`);
    try {
      const meta = seen.meta ? await readMeta(metaPath, root, hash) : null;
      if (!meta && referencedHashes.has(hash)) {
        // A row still names this file: its content stays (the metadata can be rewritten), never lost.
        warn("defekte Metadaten einer noch verwendeten Datei – Datei behalten");
        continue;
      }
      if (!meta) {
        // Broken or missing metadata: the content cannot be served; written before the cutoff it
        // is a crash's leftover, never an upload in flight (metadata is renamed into place last).
        const modified = Math.max((await mtime(datPath)) ?? 0, (await mtime(metaPath)) ?? 0);
        if (modified >= cutoff) continue;
        await Promise.all([rm(datPath, { force: true }), rm(metaPath, { force: true })]);
        warn(seen.meta ? "defekte Metadaten entfernt" : "Datei ohne Metadaten entfernt");
        removed += 1;
        continue;
      }
      if (referenced.has(meta.key) || meta.lastModified >= cutoff) continue;
      if (quarantine && seen.dat) {
        await moveToQuarantine(datPath, quarantine);
        await moveToQuarantine(metaPath, quarantine);
      } else {
        await Promise.all([rm(datPath, { force: true }), rm(metaPath, { force: true })]);
      }
      removed += 1;
    } catch (error) {
      warn("eine gespeicherte Datei konnte nicht geprüft werden", error);
    }
  }
  await rmdir(dir).catch(() => undefined); // only when empty
  return removed;
}

/** The fs storage: walks the folders itself (the library's list() stops at a broken file). */
async function sweepFsStorage(referenced: Set<string>, options: SweepOptions): Promise<number> {
  const root = path.join(path.resolve(env().UPLOADS_DIR), "files");
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return 0;
  }
  // The file names (sha256 of the key) of every referenced key, for files whose metadata broke.
  const referencedHashes = new Set(
    [...referenced].map((key) => path.basename(storagePaths(root, key).filePath, ".dat")),
  );
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !/^[0-9a-f]{2}$/.test(entry.name)) continue;
    try {
      const dir = path.join(root, entry.name);
      removed += await sweepShard(root, dir, referenced, options, referencedHashes);
    } catch (error) {
      warn("ein Upload-Ordner konnte nicht geprüft werden", error);
    }
  }
  return removed;
}

/**
 * Object storage: objects are written whole, so only unreferenced keys remain to remove. The bucket
 * may be shared with another machine (a deploy), so never anything younger than an hour.
 */
async function sweepObjectStorage(referenced: Set<string>, before: number): Promise<number> {
  const cutoff = Math.min(before, Date.now() - 3600_000);
  let removed = 0;
  let cursor: string | undefined;
  const stale: string[] = [];
  do {
    const page = await fileStorage().list({ cursor, includeMetadata: true, limit: 500 });
    for (const f of page.files) {
      if (!referenced.has(f.key) && f.lastModified < cutoff) stale.push(f.key);
    }
    cursor = page.cursor;
  } while (cursor);
  for (const key of stale) {
    try {
      await fileStorage().remove(key);
      removed += 1;
    } catch (error) {
      warn("ein gespeichertes Objekt konnte nicht entfernt werden", error);
    }
  }
  return removed;
}

/**
 * Removes crash leftovers and stored files no row refers to, touching only files written before
 * the cutoff; partial uploads in `incoming/` go first, whatever happens to the rest. Never throws
 * for one bad file. Returns how many parts and stored files were removed (or quarantined).
 */
export async function sweepUploads(options: SweepOptions): Promise<number> {
  let removed = await sweepIncoming(options.cutoff);
  const referenced = referencedKeys();
  removed += env().BUCKET_NAME
    ? await sweepObjectStorage(referenced, options.cutoff)
    : await sweepFsStorage(referenced, options);
  // Quarantined files leave after QUARANTINE_DAYS even when the process runs for months.
  await expireQuarantine().catch((error) =>
    warn("die Quarantäne konnte nicht geleert werden", error),
  );
  return removed;
}

/**
 * At process start no upload of this process is in flight: everything written before it started
 * is a leftover (cutoff = start). After a database restore unreferenced files are quarantined.
 */
export async function bootSweep(startedAt = Date.now()): Promise<number> {
  const restored = restorePending();
  const quarantine = restored ? await newQuarantineFolder(startedAt) : undefined;
  const removed = await sweepUploads({ cutoff: startedAt, quarantine });
  if (restored) {
    await clearRestoreMarker();
    console.log(
      `Nach der Wiederherstellung: ${removed} Upload-Datei(en) aufgeräumt, nicht referenzierte in Quarantäne (${QUARANTINE_DAYS} Tage).`,
    );
  }
  if (quarantine) await rmdir(quarantine).catch(() => undefined); // only when empty
  return removed;
}

/** Removes stored files no row refers to and crash leftovers older than `olderThanMs`. */
export const sweepUnreferencedUploads = (olderThanMs = 3600_000) =>
  sweepUploads({ cutoff: Date.now() - olderThanMs });

let sweepTimer: ReturnType<typeof setInterval> | undefined;
let startSweep: Promise<unknown> | undefined;
/**
 * Background task: a sweep at start (everything written before the start), run beside the
 * serving server — it reads only the small partial index of stored recordings (ADR 275) —,
 * then hourly (older than 1 h).
 */
export const uploadSweepTask = {
  start() {
    const failed = (error: unknown) =>
      console.warn("Upload-Aufräumen fehlgeschlagen:", (error as Error)?.name ?? "Fehler");
    startSweep = bootSweep(Date.now()).catch(failed);
    sweepTimer = setInterval(() => sweepUnreferencedUploads().catch(failed), 3600_000);
    sweepTimer.unref();
  },
  async stop() {
    if (sweepTimer) clearInterval(sweepTimer);
    sweepTimer = undefined;
    await startSweep;
  },
};
