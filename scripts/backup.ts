// `npm run backup [target.sqlite] [--bucket]`: a consistent online backup of the SQLite database (safe
// while the server runs, WAL included) plus a copy of the local uploads folder beside it.
// Default target: `<data dir>/backups/<timestamp>.sqlite` — next to the database, i.e. on the volume —
// keeping the newest BACKUP_KEEP (7) there. `--bucket` also uploads it to the replica bucket
// (BUCKET_NAME, `backups/<timestamp>.sqlite`) and keeps the newest BACKUP_KEEP there. ADR 097.
import { cpSync, createReadStream, existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import Database from "better-sqlite3";
import { S3Bucket, s3ConfigFromEnv } from "../app/server/storage/s3.ts";
import { backupFileOf, backupsDirOf, pruneBackups } from "../db/backup-files.ts";
import { BACKUP_NAME } from "../db/schema-version.ts";
import { scriptEnv } from "./script-env.ts";

const args = process.argv.slice(2);
const toBucket = args.includes("--bucket");
const explicitTarget = args.find((a) => !a.startsWith("--"));
const config = scriptEnv();
const databasePath = path.resolve(config.DATABASE_PATH);
const uploadsDir = path.resolve(config.UPLOADS_DIR);
const keep = config.BACKUP_KEEP;
const backupsDir = backupsDirOf(databasePath);
const target = path.resolve(explicitTarget ?? backupFileOf(databasePath));

if (!existsSync(databasePath)) {
  console.error(`Keine Datenbank unter ${databasePath} gefunden.`);
  process.exit(1);
}
const bucket = toBucket ? s3ConfigFromEnv() : undefined;
if (toBucket && !bucket) {
  console.error("--bucket braucht BUCKET_NAME (und AWS_* für den Zugang).");
  process.exit(1);
}
mkdirSync(path.dirname(target), { recursive: true });

const db = new Database(databasePath, { readonly: true, fileMustExist: true });
try {
  await db.backup(target);
} finally {
  db.close();
}
console.log(`Datenbank gesichert: ${target}`);

if (existsSync(uploadsDir)) {
  const uploadsTarget = `${target.replace(/\.sqlite$/, "")}-uploads`;
  cpSync(uploadsDir, uploadsTarget, { recursive: true });
  console.log(`Uploads gesichert: ${uploadsTarget}`);
}

// Retention in the default folder: the newest `keep` backups (names sort by time) stay.
if (!explicitTarget) {
  const removed = pruneBackups(backupsDir, keep);
  if (removed) console.log(`Ältere Sicherungen entfernt: ${removed} (behalten: ${keep})`);
}

if (bucket) {
  const s3 = new S3Bucket(bucket);
  const key = `backups/${path.basename(target)}`;
  const size = statSync(target).size;
  await s3.put(key, Readable.toWeb(createReadStream(target)) as ReadableStream<Uint8Array>, size, {
    "content-type": "application/vnd.sqlite3",
  });
  console.log(`In den Bucket hochgeladen: s3://${bucket.bucket}/${key}`);
  const remote = (await s3.list("backups/"))
    .map((o) => o.key)
    .filter((k) => BACKUP_NAME.test(k.slice("backups/".length)))
    .sort()
    .slice(0, -keep);
  for (const k of remote) await s3.delete(k);
}
