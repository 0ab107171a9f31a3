// `npm run backup [target.sqlite]`: a consistent online backup of the SQLite database (safe while the
// server runs, WAL included) plus a copy of the uploads folder beside it.
import { cpSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

const databasePath = path.resolve(process.env.DATABASE_PATH ?? "db/data.sqlite");
const uploadsDir = path.resolve(process.env.UPLOADS_DIR ?? "uploads");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const target = path.resolve(process.argv[2] ?? path.join("backups", `${stamp}.sqlite`));

if (!existsSync(databasePath)) {
  console.error(`Keine Datenbank unter ${databasePath} gefunden.`);
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
