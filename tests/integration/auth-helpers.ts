import Database from "better-sqlite3";
import { hashPassword } from "~/server/platform/crypto.server";
import { startSmtpInbox } from "../smtp-inbox";
import type { TestServer } from "./server";

export type { ReceivedMail } from "../smtp-inbox";

/** A real SMTP server on loopback (port 0) collecting mails for the account tests. */
export const startInbox = () => startSmtpInbox();

/** The token query parameter of the first link to `path` in a mail text. */
export function linkToken(text: string, path: string): string {
  const match = text.match(new RegExp(`https?://[^\\s]+${path}\\?token=([^\\s&]+)`));
  if (!match?.[1]) throw new Error(`no ${path} link in mail: ${text}`);
  return decodeURIComponent(match[1]);
}

/** Direct access to the test database (the same file the test server uses). */
export function testDb() {
  const db = new Database(process.env.DATABASE_PATH as string);
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Inserts an admin directly; returns its id and credentials. */
export async function insertAdmin(
  username: string,
  options: { password?: string; active?: boolean; passwordChanged?: boolean; email?: string } = {},
) {
  const password = options.password ?? `${username}-passwort`;
  const email = options.email ?? `${username}@example.com`;
  const db = testDb();
  try {
    const info = db
      .prepare(
        "INSERT INTO admins (username, email, password_hash, is_active, password_changed) VALUES (?, ?, ?, ?, ?)",
      )
      .run(
        username,
        email,
        await hashPassword(password),
        options.active === false ? 0 : 1,
        options.passwordChanged === false ? 0 : 1,
      );
    return { id: Number(info.lastInsertRowid), username, password, email };
  } finally {
    db.close();
  }
}

/** Logs in through the API and returns the token (fails the test otherwise). */
export async function apiLogin(server: TestServer, username: string, password: string) {
  const res = await server.fetch("/api/admin/auth/login", {
    method: "POST",
    json: { username, password },
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`login ${username} failed: ${JSON.stringify(body)}`);
  return body.token as string;
}

/** Logs in through the page's form (no JS) and returns the session cookie (`__session=…`). */
export async function pageSessionCookie(server: TestServer, username: string, password: string) {
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  if (login.status !== 302) throw new Error(`page login ${username} failed: ${login.status}`);
  return (login.headers.getSetCookie().find((c) => c.startsWith("__session=")) ?? "").split(
    ";",
  )[0] as string;
}
