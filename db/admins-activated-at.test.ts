// Migration 0029 (ADR 358): `admins.activated_at` marks an account that was active once, so a
// deactivated one that never logged in is told apart from a registration awaiting activation. The
// backfill sets it for existing accounts; two triggers keep it on every way to become active.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";

type Journal = { entries: { tag: string }[] };
const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as Journal;
const BEFORE = journal.entries.findIndex((e) => e.tag === "0029_activated_at");
const dir = mkdtempSync(path.join(tmpdir(), "activated-at-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A migrations folder with the migrations before 0029 (the build before this one). */
function migrationsBefore(): string {
  const folder = path.join(dir, "before");
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const entries = journal.entries.slice(0, BEFORE);
  for (const entry of entries)
    copyFileSync(`db/migrations/${entry.tag}.sql`, path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

const created = Date.parse("2026-11-01T09:00:00Z");
const activated = Date.parse("2026-11-02T10:00:00Z");
const loggedIn = Date.parse("2026-11-03T11:00:00Z");

describe("admins.activated_at", () => {
  const sqlite = new Database(":memory:");
  const db = drizzle({ client: sqlite });
  migrate(db, { migrationsFolder: migrationsBefore() });
  const admin = sqlite.prepare(
    "INSERT INTO admins (username, email, password_hash, is_active, last_login, created_at) VALUES (?, ?, 'x', ?, ?, ?)",
  );
  const audit = sqlite.prepare(
    "INSERT INTO audit_log (at, actor_name, action, target) VALUES (?, 'admin', ?, ?)",
  );
  admin.run("aktiv", "aktiv@example.com", 1, null, created);
  admin.run("ehemalig", "ehemalig@example.com", 0, loggedIn, created);
  admin.run("wartet", "wartet@example.com", 0, null, created);
  // Activated, then deactivated before a first login: only the audit log tells.
  admin.run("kurz", "kurz@example.com", 0, null, created);
  audit.run(activated, "account-activated", "kurz");
  audit.run(activated + 60_000, "account-deactivated", "kurz");
  // A new registration under the name of an account activated (and deleted) before it existed.
  audit.run(created - 86_400_000, "account-activated", "neu");
  admin.run("neu", "neu@example.com", 0, null, created);
  migrate(db, { migrationsFolder: "db/migrations" });

  const activatedAt = (username: string) =>
    (
      sqlite.prepare("SELECT activated_at AS at FROM admins WHERE username = ?").get(username) as {
        at: number | null;
      }
    ).at;

  it("is backfilled for accounts that were active once, never for one awaiting activation", () => {
    expect(activatedAt("aktiv")).toBe(created);
    expect(activatedAt("ehemalig")).toBe(created);
    expect(activatedAt("kurz")).toBe(activated);
    expect(activatedAt("wartet")).toBeNull();
    expect(activatedAt("neu")).toBeNull();
  });

  it("is set when an account is created active or becomes active, and kept by a deactivation", () => {
    admin.run("frisch", "frisch@example.com", 1, null, created);
    expect(activatedAt("frisch")).toBe(created);

    admin.run("registriert", "registriert@example.com", 0, null, created);
    expect(activatedAt("registriert")).toBeNull();
    const before = Date.now();
    sqlite.prepare("UPDATE admins SET is_active = 1 WHERE username = 'registriert'").run();
    const first = activatedAt("registriert") as number;
    expect(first).toBeGreaterThanOrEqual(before);
    expect(first).toBeLessThanOrEqual(Date.now());

    sqlite.prepare("UPDATE admins SET is_active = 0 WHERE username = 'registriert'").run();
    expect(activatedAt("registriert")).toBe(first);
    // A second activation keeps the first one's time.
    sqlite.prepare("UPDATE admins SET is_active = 1 WHERE username = 'registriert'").run();
    expect(activatedAt("registriert")).toBe(first);
  });
});
