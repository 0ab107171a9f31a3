// Shared by the bench scripts: start the production server from $BUILD_DIR on a temporary database,
// the way production starts it: build-server/launch.js, which applies the runtime flags
// (server/runtime.ts) in place, so `pid` is the server (or Litestream when replication is on).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// The production start runs build-server/ (server/*.ts without types, ADR 132); made here when an
// older build lacks it (milliseconds, not an app rebuild).
if (!existsSync("build-server/launch.js"))
  execFileSync(process.execPath, ["scripts/build-server.ts"]);

export type BenchServer = {
  url: string;
  pid: number;
  child: ChildProcess;
  stop: () => Promise<void>;
};

export async function startBenchServer(
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<BenchServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "anfrage-bench-"));
  const child = spawn(process.execPath, ["build-server/launch.js"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: path.join(dir, "bench.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "bench-secret",
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "bench-passwort",
      ADMIN_EMAIL: "admin@example.com",
      SUBMISSION_RATE_LIMIT: "1000/1h",
      LOG_LEVEL: "error",
      METRICS_PORT: "0",
      ...extraEnv,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  // A launcher that first restores a large database from a replica (bench:restore) takes longer.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await (await fetch(`${url}/healthz`)).text()) === "OK") break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not start within 180 s");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid as number,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The bench admin's password after `benchAdminToken` changed it (pages need a changed one). */
const CHANGED_PASSWORD = "bench-passwort-2";

async function login(server: BenchServer, password: string): Promise<string | undefined> {
  const res = await fetch(`${server.url}/api/admin/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password }),
  });
  return ((await res.json()) as { token?: string }).token;
}

/**
 * Logs in as the bench's first admin, changes its password (pages need that) and returns the token.
 * A database copied from an earlier bench (BENCH_DATABASE) has the changed password already; a
 * login that fails both ways throws (the pages would otherwise answer with the login page).
 */
export async function benchAdminToken(server: BenchServer): Promise<string> {
  const token = await login(server, "bench-passwort");
  if (!token) {
    const again = await login(server, CHANGED_PASSWORD);
    if (!again) throw new Error("bench admin login failed");
    return again;
  }
  await fetch(`${server.url}/api/admin/auth/change-password`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ oldPassword: "bench-passwort", newPassword: CHANGED_PASSWORD }),
  });
  return token;
}
