// `npm run backup` next to the database with retention, optional copy to the bucket, and the restore
// procedure of docs/operations.md: backup → wipe → restore → data equal (ADR 097).
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3StandIn } from "../s3-stand-in";

/** Runs a script with Node 24 (async: the S3 stand-in lives in this process). */
function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("exit", (status) => resolve({ status, output }));
  });
}

let s3: Awaited<ReturnType<typeof startS3StandIn>>;
beforeAll(async () => {
  s3 = await startS3StandIn("backup-bucket");
});
afterAll(async () => {
  await s3.close();
});

async function seededDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "backup-restore-"));
  const env = {
    DATABASE_PATH: path.join(dir, "data", "sqlite.db"),
    UPLOADS_DIR: path.join(dir, "data", "uploads"),
  };
  expect((await run("scripts/migrate.ts", [], env)).status).toBe(0);
  const db = new Database(env.DATABASE_PATH);
  db.pragma("journal_mode = WAL");
  const insert = db.prepare(
    "INSERT INTO requests (name, email, phone, company_description) VALUES (?, ?, ?, ?)",
  );
  for (let i = 0; i < 3; i++) {
    insert.run(`Kundin ${i}`, `k${i}@example.com`, "+49 30 1234567", `Firma ${i}`);
  }
  db.close();
  mkdirSync(path.join(env.UPLOADS_DIR, "files"), { recursive: true });
  writeFileSync(path.join(env.UPLOADS_DIR, "files", "a.pdf"), "%PDF-1.4 Inhalt");
  return { dir, env };
}

const snapshot = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return {
      requests: db.prepare("SELECT * FROM requests ORDER BY id").all(),
      admins: db.prepare("SELECT * FROM admins ORDER BY id").all(),
      fts: db.prepare("SELECT rowid FROM requests_fts WHERE requests_fts MATCH 'firma'").all(),
    };
  } finally {
    db.close();
  }
};

describe("backup and restore", () => {
  it("writes next to the database by default and keeps the newest BACKUP_KEEP", async () => {
    const { dir, env } = await seededDataDir();
    for (let i = 0; i < 3; i++) {
      const result = await run("scripts/backup.ts", [], { ...env, BACKUP_KEEP: "2" });
      expect(result.status, result.output).toBe(0);
    }
    const backups = readdirSync(path.join(dir, "data", "backups"));
    expect(backups.filter((f) => f.endsWith(".sqlite"))).toHaveLength(2);
    expect(backups.filter((f) => f.endsWith("-uploads"))).toHaveLength(2);
    rmSync(dir, { recursive: true, force: true });
  });

  it("local path: backup → wipe → restore gives the same data and files", async () => {
    const { dir, env } = await seededDataDir();
    const before = snapshot(env.DATABASE_PATH);
    const backup = await run("scripts/backup.ts", [], env);
    expect(backup.status, backup.output).toBe(0);
    const file = /Datenbank gesichert: (.+)/.exec(backup.output)?.[1] as string;
    expect(path.dirname(file)).toBe(path.join(dir, "data", "backups"));

    rmSync(env.DATABASE_PATH);
    rmSync(env.UPLOADS_DIR, { recursive: true });
    const restored = await run("scripts/restore.ts", [file], env);
    expect(restored.status, restored.output).toBe(0);
    expect(snapshot(env.DATABASE_PATH)).toEqual(before);
    expect(before.requests).toHaveLength(3);
    // The next start quarantines stored files the restored rows do not refer to (ADR 085).
    expect(existsSync(`${env.DATABASE_PATH}.restored`)).toBe(true);
    // The next start checks every page in the background (ADR 296): the marker asks for it.
    expect(existsSync(`${env.DATABASE_PATH}.check`)).toBe(true);
    expect(readFileSync(path.join(env.UPLOADS_DIR, "files", "a.pdf"), "utf8")).toBe(
      "%PDF-1.4 Inhalt",
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it("bucket path: --bucket uploads to backups/ (newest BACKUP_KEEP), restore from there is equal", async () => {
    const { dir, env } = await seededDataDir();
    const before = snapshot(env.DATABASE_PATH);
    const all = { ...env, ...s3.env, BACKUP_KEEP: "2" };
    let last = "";
    for (let i = 0; i < 3; i++) {
      const result = await run("scripts/backup.ts", ["--bucket"], all);
      expect(result.status, result.output).toBe(0);
      last = /s3:\/\/backup-bucket\/(\S+)/.exec(result.output)?.[1] as string;
    }
    const keys = [...s3.objects.keys()].filter((k) => k.startsWith("backups/"));
    expect(keys).toHaveLength(2);
    expect(keys).toContain(last);
    // Streamed with its length announced, not buffered or chunked.
    const put = s3.requests.find((r) => r.method === "PUT" && r.key === last);
    expect(Number(put?.contentLength)).toBe(s3.objects.get(last)?.body.length);

    rmSync(path.join(dir, "data"), { recursive: true });
    const restored = await run("scripts/restore.ts", ["--bucket", last], all);
    expect(restored.status, restored.output).toBe(0);
    expect(snapshot(env.DATABASE_PATH)).toEqual(before);
    rmSync(dir, { recursive: true, force: true });
  });

  it("--no-check restores without asking the server for the integrity check", async () => {
    const { dir, env } = await seededDataDir();
    const before = snapshot(env.DATABASE_PATH);
    const backup = await run("scripts/backup.ts", [], env);
    const file = /Datenbank gesichert: (.+)/.exec(backup.output)?.[1] as string;
    writeFileSync(`${env.DATABASE_PATH}.check`, "von vorher");
    rmSync(env.DATABASE_PATH);
    const restored = await run("scripts/restore.ts", [file, "--no-check"], env);
    expect(restored.status, restored.output).toBe(0);
    expect(snapshot(env.DATABASE_PATH)).toEqual(before);
    expect(existsSync(`${env.DATABASE_PATH}.check`)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a damaged backup without touching the database", async () => {
    const { dir, env } = await seededDataDir();
    const before = snapshot(env.DATABASE_PATH);
    const bad = path.join(dir, "kaputt.sqlite");
    writeFileSync(bad, "keine Datenbank");
    const result = await run("scripts/restore.ts", [bad], env);
    expect(result.status).not.toBe(0);
    expect(snapshot(env.DATABASE_PATH)).toEqual(before);
    rmSync(dir, { recursive: true, force: true });
  });
});
