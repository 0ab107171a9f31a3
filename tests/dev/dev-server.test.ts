import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm run dev` (server/dev.ts) serves through server/app.ts like production: the same helmet
// headers, the per-request CSP nonce and the Origin check. Started on a free port (PORT=0).
const dir = mkdtempSync(path.join(tmpdir(), "dev-server-"));
// Vitest's own variables would switch the React Router Vite plugin into its test mode.
const parentEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && key !== "TEST"),
);
const child = spawn(process.execPath, ["server/dev.ts"], {
  env: {
    ...parentEnv,
    NODE_ENV: "development",
    LOG_LEVEL: "info",
    HOST: "127.0.0.1",
    PORT: "0",
    METRICS_PORT: "0",
    DATABASE_PATH: path.join(dir, "db.sqlite"),
    UPLOADS_DIR: path.join(dir, "uploads"),
    ADMIN_PASSWORD: "Entwicklung-12345",
  },
});
let output = "";
const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
let base = "";

beforeAll(async () => {
  base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port = /läuft auf http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    exited.then((code) => reject(new Error(`dev server exited (${code}):\n${output}`)));
  });
}, 180_000);

afterAll(async () => {
  child.kill("SIGTERM");
  await exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("sends the production security headers, with the CSP nonce on every script", async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("permissions-policy")).toContain("camera=()");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const html = await res.text();
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // Vite serves the client modules and its HMR client from the same app.
    expect((await fetch(`${base}/@vite/client`)).status).toBe(200);
  });

  it("refuses a cross-site mutation (Origin check) like production", async () => {
    const res = await fetch(`${base}/api/admin/auth/logout`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(403);
  });
});
