// No silent downgrade (ADR 323): the database carries the schema version it
// was migrated to (`PRAGMA user_version`), a build that finds a newer one refuses to start with one
// German line naming the way back, and `npm start` backs a database with data up (the format of
// `npm run backup`, kept by BACKUP_KEEP) before it migrates it. A database made by the oldest
// schema (the first two migrations) is migrated without losing a row.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { hashPassword } from "~/server/platform/crypto.server";
import { startServerProcess } from "./server-process";

type Journal = { entries: { idx: number; tag: string; when: number }[] };
const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as Journal;
/** The schema version of this build: how many migrations it knows. */
const CURRENT = journal.entries.length;

/** A migrations folder with only the first `n` migrations (an older build's). */
function firstMigrations(dir: string, n: number): string {
  const folder = path.join(dir, "old-migrations");
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const entries = journal.entries.slice(0, n);
  for (const entry of entries)
    copyFileSync(`db/migrations/${entry.tag}.sql`, path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

/** A database at the oldest schema (the first two migrations) with an admin and some data. */
async function oldestDatabase(file: string) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  migrate(drizzle({ client: sqlite }), {
    migrationsFolder: firstMigrations(path.dirname(file), 2),
  });
  sqlite
    .prepare(
      "INSERT INTO admins (username, email, password_hash, password_changed) VALUES ('alt', 'alt@example.com', ?, 1)",
    )
    .run(await hashPassword("ein-altes-langes-passwort"));
  const request = sqlite.prepare(
    "INSERT INTO requests (name, email, phone, company_description, description, status, affiliate_code, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  request.run(
    "Greta Altbestand",
    "greta@example.com",
    "+49 30 123",
    "Tischlerei",
    "Ein Lagerverwaltungssystem",
    "New",
    "ALT10",
    Date.parse("2026-01-10T10:00:00Z"),
  );
  request.run(
    "Jonas Früher",
    "jonas@example.com",
    "0171 2345",
    "Spedition",
    "Tourenplanung mit Karte",
    "In Progress",
    null,
    Date.parse("2026-02-11T11:00:00Z"),
  );
  sqlite
    .prepare(
      "INSERT INTO affiliate_codes (code, name, email, discount_value) VALUES ('ALT10', 'Partner', 'p@example.com', 10)",
    )
    .run();
  sqlite
    .prepare(
      "INSERT INTO appointments (request_id, provider, external_uid, event_type_key, event_type_name, start_time, status) VALUES (1, 'builtin', 'alt-uid', 'demo', 'Demo', ?, 'ACCEPTED')",
    )
    .run(Date.parse("2026-03-02T09:00:00Z"));
  sqlite.close();
}

/** Every table of the old schema with its rows, as the old columns read them. */
function snapshot(file: string, tables: Record<string, string[]>) {
  const sqlite = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      Object.entries(tables).map(([table, columns]) => [
        table,
        sqlite
          .prepare(`SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM "${table}" ORDER BY 1`)
          .all(),
      ]),
    );
  } finally {
    sqlite.close();
  }
}
function tablesOf(file: string): Record<string, string[]> {
  const sqlite = new Database(file, { readonly: true });
  try {
    const names = (
      sqlite
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\'",
        )
        .all() as { name: string }[]
    ).map((r) => r.name);
    return Object.fromEntries(
      names.map((name) => [
        name,
        (sqlite.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map(
          (c) => c.name,
        ),
      ]),
    );
  } finally {
    sqlite.close();
  }
}
const pragma = (file: string, name: string) => {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.pragma(name, { simple: true });
  } finally {
    sqlite.close();
  }
};

describe("schema version, backup before migrating, no silent downgrade", () => {
  it("a database from the oldest schema is backed up, migrated without losing a row, and carries its version", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "schema-"));
    const file = path.join(dir, "db.sqlite");
    await oldestDatabase(file);
    const tables = tablesOf(file);
    const before = snapshot(file, tables);
    // Backups an operator made earlier: with BACKUP_KEEP=2 the oldest goes.
    const backups = path.join(dir, "backups");
    mkdirSync(backups);
    for (const stamp of ["2026-01-01T00-00-00-000Z", "2026-01-02T00-00-00-000Z"])
      copyFileSync(file, path.join(backups, `${stamp}.sqlite`));

    const env = { DATABASE_PATH: file, UPLOADS_DIR: path.join(dir, "uploads"), BACKUP_KEEP: "2" };
    const server = await startServerProcess(env);
    try {
      await server.healthy();
      // The backup taken before the migrations: the old schema with all its rows.
      const kept = readdirSync(backups)
        .filter((f) => f.endsWith(".sqlite"))
        .sort();
      expect(kept).toHaveLength(2);
      expect(kept[0]).toBe("2026-01-02T00-00-00-000Z.sqlite");
      const taken = path.join(backups, kept[1] as string);
      expect(snapshot(taken, tables)).toEqual(before);
      expect(pragma(taken, "user_version")).toBe(0);
      expect(server.output()).toContain(`Sicherung vor den Migrationen: ${taken}`);

      // Nothing lost: every old row, column by column; the app serves them.
      expect(snapshot(file, tables)).toEqual(before);
      expect(pragma(file, "user_version")).toBe(CURRENT);
      const login = await fetch(`${server.url}/api/admin/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "alt", password: "ein-altes-langes-passwort" }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const list = await fetch(`${server.url}/api/admin/requests?search=Tourenplanung`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(list.status).toBe(200);
      expect(JSON.stringify(await list.json())).toContain("Jonas Früher");
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // Nothing left to migrate: the next start takes no backup.
    const again = await startServerProcess(env);
    try {
      await again.healthy();
      expect(readdirSync(backups).filter((f) => f.endsWith(".sqlite"))).toHaveLength(2);
      expect(again.output()).not.toContain("Sicherung vor den Migrationen");
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 120_000);

  it("a database a newer build migrated: this build refuses to start with one German line naming the backup", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "schema-newer-"));
    const file = path.join(dir, "db.sqlite");
    // A new database is migrated without a backup (it has nothing to lose).
    execFileSync(process.execPath, [
      "server/migrate-worker.ts",
      JSON.stringify({ databasePath: file, migrationsFolder: "db/migrations", backupKeep: 7 }),
    ]);
    expect(readdirSync(dir).includes("backups")).toBe(false);
    expect(pragma(file, "user_version")).toBe(CURRENT);
    // The backup the newer build took before it migrated (this build's version), then its migration.
    mkdirSync(path.join(dir, "backups"));
    const before = path.join(dir, "backups", "2026-12-01T08-00-00-000Z.sqlite");
    copyFileSync(file, before);
    cpSync(before, path.join(dir, "backups", "2026-12-02T08-00-00-000Z.sqlite"));
    const newer = new Database(path.join(dir, "backups", "2026-12-02T08-00-00-000Z.sqlite"));
    newer.pragma(`user_version = ${CURRENT + 2}`);
    newer.close();
    const sqlite = new Database(file);
    sqlite.pragma(`user_version = ${CURRENT + 3}`);
    sqlite.close();

    const server = await startServerProcess({
      DATABASE_PATH: file,
      UPLOADS_DIR: path.join(dir, "up"),
    });
    const outcome = await Promise.race([
      server.exited,
      server.healthy().then(
        () => "started",
        () => "exited",
      ),
    ]);
    if (outcome === "started") await server.stop();
    expect(outcome).not.toBe("started");
    expect(await server.exited).not.toBe(0);
    const lines = server
      .stderr()
      .trim()
      .split("\n")
      .filter((line) => line && !line.startsWith("npm warn"));
    expect(lines).toEqual([
      `Die Datenbank stammt von einer neueren Version des Anfrage-Portals (Schema ${CURRENT + 3}, diese Version kennt ${CURRENT}) und wird nicht angefasst. Zurück geht es nur mit der Sicherung von vor dem Update: npm run restore -- ${before} (docs/operations.md, „Upgrade and roll back“).`,
    ]);
    // Untouched: still the newer version.
    expect(pragma(file, "user_version")).toBe(CURRENT + 3);
  }, 60_000);
});
