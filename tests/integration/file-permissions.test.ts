// Private files (ADR 324): what the server, `npm run backup` and `npm run restore` write — the
// database with its WAL and shared memory, the session secret, uploads and their temporary files,
// backups — is readable by its owner only (files 0600, folders 0700), and a data directory left
// world-readable by an older version is closed at the next start.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { multipart, pdfBytes, validFields } from "./landing-fixtures";
import { startServerProcess } from "./server-process";

/** Every path under `root` (itself included) whose mode lets anyone but the owner in. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (file: string) => {
    const stat = statSync(file);
    if ((stat.mode & 0o077) !== 0)
      found.push(`${path.relative(root, file) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(file)) walk(path.join(file, name));
  };
  walk(root);
  return found;
}

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe("files are private to the server's user", () => {
  it("database, WAL, shared memory, session secret, uploads, temp files and backups: 0600 / 0700", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "perm-"));
    const data = path.join(dir, "data");
    const env = {
      DATABASE_PATH: path.join(data, "db.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      // Generated beside the database (`.session-secret`).
      SESSION_SECRET: undefined,
    };
    const server = await startServerProcess(env);
    try {
      await server.healthy();
      const res = await fetch(`${server.url}/api/requests`, {
        method: "POST",
        body: multipart(validFields(), [{ name: "plan.pdf", bytes: pdfBytes(3000) }]),
      });
      expect(res.status).toBe(201);
      const backupEnv = { ...process.env, ...env, SESSION_SECRET: "" };
      execFileSync(process.execPath, ["scripts/backup.ts"], { env: backupEnv, stdio: "ignore" });
      expect(readdirSync(data).sort()).toEqual(
        [".session-secret", "backups", "db.sqlite", "db.sqlite-shm", "db.sqlite-wal"].sort(),
      );
      expect(readdirSync(path.join(dir, "uploads")).length).toBeGreaterThan(0);
      expect(openToOthers(data)).toEqual([]);
      expect(openToOthers(path.join(dir, "uploads"))).toEqual([]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // A restore writes the database and the uploads privately too.
    const [backup] = readdirSync(path.join(data, "backups")).filter((f) => f.endsWith(".sqlite"));
    execFileSync(
      process.execPath,
      ["scripts/restore.ts", path.join(data, "backups", backup as string)],
      {
        env: { ...process.env, ...env, SESSION_SECRET: "" },
        stdio: "ignore",
      },
    );
    expect(openToOthers(data)).toEqual([]);
    expect(openToOthers(path.join(dir, "uploads"))).toEqual([]);
  }, 120_000);

  it("a data directory an older version left open (db.sqlite* 0644, uploads 0755) is closed at start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "perm-old-"));
    const data = path.join(dir, "data");
    mkdirSync(data, { mode: 0o755 });
    writeFileSync(path.join(data, "db.sqlite"), "", { mode: 0o644 });
    writeFileSync(path.join(data, ".session-secret"), "a".repeat(64), { mode: 0o644 });
    mkdirSync(path.join(data, "backups"), { mode: 0o755 });
    writeFileSync(path.join(data, "backups/2026-01-01T00-00-00-000Z.sqlite"), "", { mode: 0o644 });
    mkdirSync(path.join(dir, "uploads"), { mode: 0o755 });
    for (const file of [data, path.join(data, "db.sqlite"), path.join(dir, "uploads")])
      chmodSync(file, statSync(file).isDirectory() ? 0o755 : 0o644);
    const server = await startServerProcess({
      DATABASE_PATH: path.join(data, "db.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: undefined,
    });
    try {
      await server.healthy();
      expect(mode(path.join(data, "db.sqlite"))).toBe("600");
      expect(mode(path.join(data, "db.sqlite-wal"))).toBe("600");
      expect(mode(path.join(data, "db.sqlite-shm"))).toBe("600");
      expect(mode(path.join(data, ".session-secret"))).toBe("600");
      expect(mode(path.join(data, "backups"))).toBe("700");
      expect(mode(path.join(dir, "uploads"))).toBe("700");
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
