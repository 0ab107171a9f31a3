// `npm run db:migrate`: apply the committed migrations to DATABASE_PATH without starting the server
// (the server also applies them at boot).
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { NewerSchemaError, recordSchemaVersion, refuseNewerSchema } from "../db/schema-version.ts";
import { scriptEnv } from "./script-env.ts";

const databasePath = path.resolve(scriptEnv().DATABASE_PATH);
mkdirSync(path.dirname(databasePath), { recursive: true });
const sqlite = new Database(databasePath);
sqlite.pragma("journal_mode = WAL");
sqlite.pragma("foreign_keys = ON");
const migrationsFolder = path.resolve("db/migrations");
try {
  // A database a newer build migrated is not touched (ADR 323).
  refuseNewerSchema(sqlite, migrationsFolder, databasePath);
} catch (error) {
  if (!(error instanceof NewerSchemaError)) throw error;
  console.error(error.message);
  process.exit(2);
}
migrate(drizzle({ client: sqlite }), { migrationsFolder });
recordSchemaVersion(sqlite, migrationsFolder);
sqlite.close();
console.log(`Migrationen angewendet: ${databasePath}`);
