// Memory under oversized bodies (ADR 080): a separately spawned production server must not buffer
// what it refuses. Its peak RSS (VmHWM from /proc) may grow by less than 150 MB while six 50 MB
// JSON bodies and one 200 MB multipart body, all chunked (no Content-Length), arrive at once.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeArgs, runtimeEnv } from "../../server/runtime.ts";

const MB = 1024 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** VmRSS (now) or VmHWM (peak) of a process in MB, from /proc/<pid>/status (Linux). */
function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field}`);
  return Number(line.replace(/\D+/g, "")) / 1024;
}

/**
 * Streams `totalBytes` (chunked, no Content-Length) to the server and resolves with the status it
 * answered, or "closed" when it cut the connection before answering. Stops writing on the answer.
 */
function streamBody(
  port: number,
  urlPath: string,
  contentType: string,
  head: Buffer,
  totalBytes: number,
): Promise<number | "closed"> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: number | "closed") => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = request({
      host: "127.0.0.1",
      port,
      path: urlPath,
      method: "POST",
      headers: { "content-type": contentType, "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      done(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    req.on("error", () => done("closed"));
    req.on("close", () => done("closed"));
    const chunk = Buffer.alloc(MB, 0x61);
    let sent = 0;
    const write = () => {
      if (sent === 0) {
        req.write(head);
        sent += head.length;
      }
      while (!settled && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      if (!settled) req.end();
    };
    write();
  });
}

describe("memory under oversized bodies", () => {
  it("six chunked 50 MB JSON bodies and a chunked 200 MB multipart body grow peak RSS by < 150 MB", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "memory-"));
    const port = await freePort();
    // The runtime of every production start (server/runtime.ts: V8 flags, allocator).
    const child = spawn(process.execPath, runtimeArgs("server/index.ts"), {
      env: runtimeEnv({
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        METRICS_PORT: "0",
        LOG_LEVEL: "error",
        DATABASE_PATH: path.join(dir, "data.sqlite"),
        UPLOADS_DIR: path.join(dir, "uploads"),
      }),
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 600; i++) {
        try {
          if ((await (await fetch(`${url}/healthz`)).text()) === "OK") break;
        } catch {}
        await new Promise((r) => setTimeout(r, 100));
      }
      // Warm up the routes involved, so their code is loaded before the baseline.
      expect((await fetch(`${url}/`)).status).toBe(200);
      await fetch(`${url}/api/admin/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "x", password: "y" }),
      });
      const pid = child.pid as number;
      // The growth is the peak during the attack over the resident size before it (stricter than peak
      // over peak: the boot's own peak cannot hide growth below it).
      const before = memoryMb(pid, "VmRSS");

      const boundary = "----grenze";
      const multipartHead = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="gross.pdf"\r\n` +
          "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
      );
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () =>
          streamBody(
            port,
            "/api/admin/auth/login",
            "application/json",
            Buffer.from('{"username":"'),
            50 * MB,
          ),
        ),
        streamBody(
          port,
          "/api/requests",
          `multipart/form-data; boundary=${boundary}`,
          multipartHead,
          200 * MB,
        ),
      ]);
      const after = memoryMb(pid, "VmHWM");
      console.info(
        `memory: VmRSS ${before.toFixed(1)} MB → VmHWM ${after.toFixed(1)} MB (+${(after - before).toFixed(1)} MB), answers ${results.join(", ")}`,
      );

      // Every body was refused (413) or cut off; none was answered with a server error.
      for (const result of results) {
        if (result !== "closed") expect(result).toBeLessThan(500);
      }
      expect(results.filter((r) => r === 413).length).toBeGreaterThan(0);
      expect(
        after - before,
        `VmRSS ${before.toFixed(1)} → VmHWM ${after.toFixed(1)} MB`,
      ).toBeLessThan(150);
      // The server is still healthy afterwards.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
