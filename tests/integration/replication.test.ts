// Litestream end to end (ADR 090): the real launcher (server/launch.ts) with a file:// replica, a
// kill -9 of the whole process tree, the data directory deleted, a start on the "new machine".

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { litestreamBinary, litestreamPlan } from "../../server/litestream.ts";
import { solvedAltcha } from "../altcha-solution";
import { startS3StandIn } from "../s3-stand-in";
import { multipart, validFields } from "./landing-fixtures";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A free port whose successor is free too (Litestream's metrics listen on METRICS_PORT + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const next = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port + 1, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (next) return port;
  }
}

/** One sample's value from Prometheus text. */
const sample = (text: string, name: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

/** `node server/launch.ts` in its own process group (launcher → litestream → server). */
function launch(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--max-semi-space-size=4", "server/launch.ts"], {
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", HOST: "127.0.0.1", ...env },
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(url: string, proc: ReturnType<typeof launch>) {
  let done = false;
  proc.exited.then(() => {
    done = true;
  });
  for (let i = 0; i < 300 && !done; i++) {
    try {
      if ((await (await fetch(`${url}/healthz`)).text()) === "OK") return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy:\n${proc.output()}`);
}

/** kill -9 of the launcher, Litestream and the server together. */
async function killTree(child: ChildProcess, exited: Promise<unknown>) {
  process.kill(-(child.pid as number), "SIGKILL");
  await exited;
}

/** Restores the replica into a scratch file and counts the requests in it (the replica's state). */
function replicaRequestCount(replica: string, scratch: string): number {
  rmSync(scratch, { force: true });
  const result = spawnSync(litestreamBinary(), ["restore", "-o", scratch, `file://${replica}`]);
  if (result.status !== 0) return -1;
  const db = new Database(scratch, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM requests").get() as { n: number }).n;
  } catch {
    return -1;
  } finally {
    db.close();
  }
}

describe("continuous replication with Litestream (file:// replica)", () => {
  it("brings every acknowledged lead back on a new machine, admins stay logged in", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "replication-"));
    const dataDir = path.join(root, "data");
    const replica = path.join(root, "replica");
    const port = await freePort();
    const metricsPort = await freePortPair();
    const url = `http://127.0.0.1:${port}`;
    const secret = "replication-test-secret";
    const env = {
      PORT: String(port),
      DATABASE_PATH: path.join(dataDir, "sqlite.db"),
      UPLOADS_DIR: path.join(dataDir, "uploads"),
      LITESTREAM_REPLICA_URL: `file://${replica}`,
      SESSION_SECRET: secret,
      ADMIN_USERNAME: "admin",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "admin-passwort",
      SUBMISSION_RATE_LIMIT: "100/1h",
      METRICS_PORT: String(metricsPort),
    };

    const first = launch(env);
    try {
      await waitForHealth(url, first);
      expect(first.output()).not.toMatch(/SESSION_SECRET ist nicht gesetzt/);
      const login = await fetch(`${url}/api/admin/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: "admin-passwort" }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };

      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${url}/api/requests`, {
          method: "POST",
          body: multipart(validFields({ name: `Kundin ${i}`, altcha: await solvedAltcha(url) })),
        });
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: number }).id);
      }

      // Litestream ships the WAL asynchronously (sync-interval 1 s): poll the replica until it has them.
      const scratch = path.join(root, "check.sqlite");
      let count = -1;
      for (let i = 0; i < 200 && count < ids.length; i++) {
        count = replicaRequestCount(replica, scratch);
        if (count < ids.length) await new Promise((r) => setTimeout(r, 100));
      }
      expect(count).toBe(ids.length);

      // The replication lag metric settles at 0 once Litestream's upload has been seen (polled 1/s).
      let lag: number | undefined;
      let up: number | undefined;
      for (let i = 0; i < 100 && lag !== 0; i++) {
        const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
        lag = sample(text, "anfrage_replication_lag_seconds");
        up = sample(text, "anfrage_replication_up");
        if (lag !== 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up).toBe(1);
      expect(lag).toBe(0);

      await killTree(first.child, first.exited);
      rmSync(dataDir, { recursive: true, force: true });

      const second = launch(env);
      try {
        await waitForHealth(url, second);
        expect(second.output()).toMatch(/restor/i);
        // The launcher marked the restore; the boot sweep (after listening, ADR 277) consumes
        // the marker — it may finish just after /healthz says OK.
        await expect
          .poll(second.output, { timeout: 10_000 })
          .toContain("Nach der Wiederherstellung: 0 Upload-Datei(en) aufgeräumt");
        await expect.poll(() => existsSync(`${env.DATABASE_PATH}.restored`)).toBe(false);
        const list = await fetch(`${url}/api/admin/requests`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(list.status).toBe(200);
        const body = (await list.json()) as { requests: { id: number }[] };
        expect(body.requests.map((r) => r.id).sort()).toEqual([...ids].sort());

        // The browser's signed session cookie still verifies: the secret came from the environment.
        const cookie = await createCookie("__session", { secrets: [secret] }).serialize(token);
        const verify = await fetch(`${url}/api/admin/auth/verify`, {
          headers: { cookie: cookie.split(";")[0] },
        });
        expect(verify.status).toBe(200);
      } finally {
        await killTree(second.child, second.exited);
      }
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) {
        await killTree(first.child, first.exited);
      }
      rmSync(root, { recursive: true, force: true });
    }
  }, 90_000);

  it("warns loudly without SESSION_SECRET, forwards SIGTERM and exits with the server's code", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "replication-"));
    const port = await freePort();
    const proc = launch({
      PORT: String(port),
      DATABASE_PATH: path.join(root, "data", "sqlite.db"),
      UPLOADS_DIR: path.join(root, "data", "uploads"),
      LITESTREAM_REPLICA_URL: `file://${path.join(root, "replica")}`,
      SESSION_SECRET: "",
      ADMIN_PASSWORD: "admin-passwort",
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, proc);
      expect(proc.output()).toMatch(/WARNUNG: .*SESSION_SECRET ist nicht gesetzt/);
      proc.child.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      expect(proc.output()).toMatch(/SIGTERM erhalten/);
    } finally {
      if (proc.child.exitCode === null) await killTree(proc.child, proc.exited);
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it("replicates to S3 (BUCKET_NAME → s3://$BUCKET_NAME/litestream) and restores from there", async () => {
    const s3 = await startS3StandIn("replica-bucket");
    const root = mkdtempSync(path.join(tmpdir(), "replication-s3-"));
    const dataDir = path.join(root, "data");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      ...s3.env,
      PORT: String(port),
      DATABASE_PATH: path.join(dataDir, "sqlite.db"),
      UPLOADS_DIR: path.join(dataDir, "uploads"),
      SESSION_SECRET: "s3-replication-secret",
      ADMIN_PASSWORD: "admin-passwort",
      METRICS_PORT: "0",
    };
    const first = launch(env);
    try {
      await waitForHealth(url, first);
      const res = await fetch(`${url}/api/requests`, {
        method: "POST",
        body: multipart(validFields({ name: "Aus dem Bucket", altcha: await solvedAltcha(url) })),
      });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      // Poll the bucket until a restore from it holds the request: a WAL upload seen starting is
      // not one that finished (a kill -9 then cuts it off), nor one that read the commit.
      const plan = litestreamPlan(env) as NonNullable<ReturnType<typeof litestreamPlan>>;
      const config = path.join(root, "litestream.yml");
      writeFileSync(config, plan.yaml);
      const scratch = path.join(root, "check.sqlite");
      // Asynchronous: the S3 stand-in answers Litestream from this process.
      const restoredHas = async () => {
        rmSync(scratch, { force: true });
        const restore = spawn(
          litestreamBinary(),
          ["restore", "-config", config, "-o", scratch, plan.databasePath],
          { env: { ...process.env, ...env }, stdio: "ignore" },
        );
        const status = await new Promise<number | null>((resolve) => restore.on("exit", resolve));
        if (status !== 0 || !existsSync(scratch)) return false;
        const copy = new Database(scratch, { readonly: true });
        try {
          return copy.prepare("SELECT 1 FROM requests WHERE id = ?").get(id) !== undefined;
        } catch {
          return false;
        } finally {
          copy.close();
        }
      };
      let replicated = false;
      for (let i = 0; i < 200 && !replicated; i++) {
        replicated = await restoredHas();
        if (!replicated) await new Promise((r) => setTimeout(r, 100));
      }
      expect(replicated).toBe(true);

      await killTree(first.child, first.exited);
      rmSync(dataDir, { recursive: true, force: true });
      const second = launch(env);
      try {
        await waitForHealth(url, second);
        const token = await (
          await fetch(`${url}/api/admin/auth/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username: "admin", password: "admin-passwort" }),
          })
        ).json();
        const list = (await (
          await fetch(`${url}/api/admin/requests`, {
            headers: { authorization: `Bearer ${token.token}` },
          })
        ).json()) as { requests: { id: number; name: string }[] };
        expect(list.requests).toContainEqual(
          expect.objectContaining({ id, name: "Aus dem Bucket" }),
        );
      } finally {
        await killTree(second.child, second.exited);
      }
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) {
        await killTree(first.child, first.exited);
      }
      await s3.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 90_000);
});
