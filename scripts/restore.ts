// `npm run restore <backup.sqlite | --bucket backups/<name>.sqlite> [--no-check]` — with the server
// stopped: puts a backup in place of the database (DATABASE_PATH; stale -wal/-shm removed) and, when
// a `<backup>-uploads` folder exists beside it, the uploads folder (UPLOADS_DIR). docs/operations.md.
// The copy is opened and its schema read before anything is replaced; the full integrity check
// (`PRAGMA quick_check`, seconds at 1M rows) runs in the server after it listens (ADR 296, marker
// `<DATABASE_PATH>.check`, server/startup.ts), unless `--no-check`.
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Database from "better-sqlite3";
import { S3Bucket, s3ConfigFromEnv } from "../app/server/storage/s3.ts";
import { privateFiles } from "../server/private-files.ts";
import { scriptEnv } from "./script-env.ts";

const args = process.argv.slice(2);
const fromBucket = args.includes("--bucket");
const noCheck = args.includes("--no-check");
const source = args.find((a) => !a.startsWith("--"));
const config = scriptEnv();
const databasePath = path.resolve(config.DATABASE_PATH);
const uploadsDir = path.resolve(config.UPLOADS_DIR);
if (!source) {
  console.error(
    "Aufruf: npm run restore -- <sicherung.sqlite> | --bucket backups/<name>.sqlite [--no-check]",
  );
  process.exit(1);
}

let file = path.resolve(source);
if (fromBucket) {
  const config = s3ConfigFromEnv();
  const object = config ? await new S3Bucket(config).get(source) : null;
  if (!object?.body) {
    console.error(`Sicherung ${source} nicht im Bucket gefunden.`);
    process.exit(1);
  }
  file = path.join(mkdtempSync(path.join(tmpdir(), "restore-")), path.basename(source));
  await pipeline(Readable.fromWeb(object.body as never), createWriteStream(file));
}
if (!existsSync(file)) {
  console.error(`Keine Sicherung unter ${file} gefunden.`);
  process.exit(1);
}
// The copy must be a SQLite database with a readable schema before anything is replaced; the
// full check of every page follows in the background once the server listens.
try {
  const check = new Database(file, { readonly: true, fileMustExist: true });
  try {
    check.prepare("SELECT count(*) FROM sqlite_schema").get();
  } finally {
    check.close();
  }
} catch (error) {
  console.error(
    `Die Sicherung ${file} ist beschädigt (${error instanceof Error ? error.message : error}).`,
  );
  process.exit(1);
}

mkdirSync(path.dirname(databasePath), { recursive: true });
for (const suffix of ["-wal", "-shm"]) rmSync(`${databasePath}${suffix}`, { force: true });
cpSync(file, databasePath);
// The next start moves stored files the restored rows do not refer to into quarantine (ADR 085).
writeFileSync(`${databasePath}.restored`, new Date().toISOString());
// The server checks the restored file's integrity after it listens (server/startup.ts).
if (noCheck) rmSync(`${databasePath}.check`, { force: true });
else writeFileSync(`${databasePath}.check`, new Date().toISOString());
console.log(`Datenbank wiederhergestellt: ${databasePath}`);

const uploadsBackup = `${file.replace(/\.sqlite$/, "")}-uploads`;
if (!fromBucket && existsSync(uploadsBackup)) {
  rmSync(uploadsDir, { recursive: true, force: true });
  cpSync(uploadsBackup, uploadsDir, { recursive: true });
  console.log(`Uploads wiederhergestellt: ${uploadsDir}`);
}
// A copy keeps its source's mode (an older, world-readable backup): closed again (ADR 324).
privateFiles(databasePath, uploadsDir);
