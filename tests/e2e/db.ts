import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { hashPassword } from "~/server/crypto.server";
import { E2E_DATABASE_PATH } from "./ports";

/** Direct access to the e2e server's SQLite file (WAL: safe beside the running server). */
export function e2eDb(databasePath = E2E_DATABASE_PATH) {
  const db = new Database(databasePath);
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Seeds an active admin whose password is already changed; returns its credentials. */
export async function seedAdmin(
  overrides: { username?: string; password?: string; email?: string } = {},
  databasePath = E2E_DATABASE_PATH,
) {
  const suffix = randomBytes(4).toString("hex");
  const username = overrides.username ?? `admin-${suffix}`;
  const password = overrides.password ?? `passwort-${suffix}`;
  const email = overrides.email ?? `${username}@example.com`;
  const db = e2eDb(databasePath);
  try {
    const info = db
      .prepare(
        "INSERT INTO admins (username, email, password_hash, is_active, password_changed) VALUES (?, ?, ?, 1, 1)",
      )
      .run(username, email, await hashPassword(password));
    return { id: Number(info.lastInsertRowid), username, password, email };
  } finally {
    db.close();
  }
}
