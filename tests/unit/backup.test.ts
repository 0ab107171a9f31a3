import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

const run = (script: string, args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });

describe("npm run db:migrate and npm run backup", () => {
  it("migrates a fresh database, then backs it up consistently with the uploads", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backup-test-"));
    const env = {
      DATABASE_PATH: path.join(dir, "data.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
    };

    const migrated = run("scripts/migrate.ts", [], env);
    expect(migrated.status, migrated.stderr).toBe(0);

    const db = new Database(env.DATABASE_PATH);
    db.pragma("journal_mode = WAL");
    db.prepare(
      "INSERT INTO requests (name, email, phone, company_description) VALUES (?, ?, ?, ?)",
    ).run(
      "Anna Beispiel",
      "anna@example.com",
      "+49 30 123456",
      "Eine Bäckerei mit drei Filialen in Berlin",
    );
    mkdirSync(env.UPLOADS_DIR, { recursive: true });
    writeFileSync(path.join(env.UPLOADS_DIR, "datei.txt"), "Inhalt");

    // The server's connection stays open while the backup runs (online backup).
    const target = path.join(dir, "backups", "copy.sqlite");
    const backup = run("scripts/backup.ts", [target], env);
    db.close();
    expect(backup.status, backup.stderr).toBe(0);

    const copy = new Database(target, { readonly: true });
    const row = copy.prepare("SELECT name FROM requests").get() as { name: string };
    const fts = copy
      .prepare("SELECT rowid FROM requests_fts WHERE requests_fts MATCH 'backerei'")
      .all();
    copy.close();
    expect(row.name).toBe("Anna Beispiel");
    expect(fts).toHaveLength(1);
    expect(readFileSync(path.join(dir, "backups", "copy-uploads", "datei.txt"), "utf8")).toBe(
      "Inhalt",
    );
  });

  it("refuses to back up a database that does not exist", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "backup-test-"));
    const result = run("scripts/backup.ts", [], { DATABASE_PATH: path.join(dir, "fehlt.sqlite") });
    expect(result.status).not.toBe(0);
    expect(existsSync(path.join(dir, "backups"))).toBe(false);
  });
});
