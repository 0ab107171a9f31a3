import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

// ADR 277: the production server listens before the migrations; a long backfill runs
// in a worker thread while /healthz answers 200 ("Startet") at once and the app 503 + Retry-After,
// then the app serves. The backfill here is a migration that computes for seconds.

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The committed migrations plus one slow backfill at the end. */
function migrationsWithSlowBackfill(dir: string): string {
  const folder = path.join(dir, "migrations");
  cpSync("db/migrations", folder, { recursive: true });
  const journalFile = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  const last = journal.entries[journal.entries.length - 1];
  const tag = `${String(last.idx + 1).padStart(4, "0")}_slow_backfill`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(
    path.join(folder, `${tag}.sql`),
    `CREATE TABLE slow_backfill (n integer);
--> statement-breakpoint
INSERT INTO slow_backfill (n) SELECT count(*) FROM (
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 6000000) SELECT x FROM c);`,
  );
  return folder;
}

it("answers /healthz at once and the app with 503 + Retry-After during a long backfill, then serves", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "startup-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server/index.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_PATH: path.join(dir, "data.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      MIGRATIONS_DIR: migrationsWithSlowBackfill(dir),
      METRICS_PORT: "0",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  let log = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    // Until it listens, connections are refused.
    let first: Response | undefined;
    for (let i = 0; i < 300 && !first; i++) {
      first = await fetch(`${url}/healthz`).catch(() => undefined);
      if (!first) await new Promise((r) => setTimeout(r, 50));
    }
    expect(first?.status).toBe(200);
    expect(await first?.text()).toBe("Startet");

    const page = await fetch(`${url}/`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect(await page.text()).toMatch(/startet gerade/);

    // While the backfill runs, the event loop stays free: every probe is answered quickly.
    let slowest = 0;
    let probes = 0;
    for (;;) {
      const started = performance.now();
      const res = await fetch(`${url}/healthz`);
      slowest = Math.max(slowest, performance.now() - started);
      expect(res.status).toBe(200);
      if ((await res.text()) === "OK") break;
      probes += 1;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(probes).toBeGreaterThan(3);
    expect(slowest).toBeLessThan(1000);

    const served = await fetch(`${url}/`);
    expect(served.status).toBe(200);
    // The gate's 503s are expected while starting: logged as info, not as failed requests.
    const gated = log
      .split("\n")
      .filter((l) => l.includes('"status":503'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(gated.length).toBeGreaterThan(0);
    for (const entry of gated) {
      expect(entry).toMatchObject({ level: "info", msg: "request", route: "/" });
      expect(entry).not.toHaveProperty("err");
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}, 120_000);

it("after a restore checks the database's integrity in the background and removes the marker", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "startup-check-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const databasePath = path.join(dir, "data.sqlite");
  // What `npm run restore` leaves beside the restored file (scripts/restore.ts).
  writeFileSync(`${databasePath}.check`, new Date().toISOString());
  const child = spawn(process.execPath, ["server/index.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: path.join(dir, "uploads"),
      METRICS_PORT: "0",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let log = "";
  const checked = new Promise<void>((resolve) =>
    child.stdout?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("Integritätsprüfung nach der Wiederherstellung: ok")) resolve();
    }),
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    await checked;
    expect(existsSync(`${databasePath}.check`)).toBe(false);
    const served = await fetch(`${url}/`);
    expect(served.status).toBe(200);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}, 120_000);
