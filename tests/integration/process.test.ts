import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ["server/index.ts"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(url: string, proc: { exited: Promise<unknown> }) {
  let done = false;
  proc.exited.then(() => {
    done = true;
  });
  for (let i = 0; i < 100 && !done; i++) {
    try {
      if ((await (await fetch(`${url}/healthz`)).text()) === "OK") return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not become healthy");
}

async function stop(child: ChildProcess, exited: Promise<number | null>) {
  child.kill("SIGTERM");
  return exited;
}

describe("the production server process", () => {
  it("stops the boot with one clear line and a non-zero exit on a bad env value", async () => {
    const proc = startServer({
      PORT: "abc",
      DATABASE_PATH: path.join(mkdtempSync(path.join(tmpdir(), "p-")), "x.sqlite"),
    });
    expect(await proc.exited).not.toBe(0);
    const lines = proc
      .output()
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });

  // The migration child starts before the build's configuration check: with a DATABASE_PATH whose
  // folder cannot be created (a regular file stands there) it must not die with Node's
  // uncaught-exception dump (stack, errno object, "Node.js v24") before the launcher's own line.
  it("stops with the one line of the configuration error, no stack trace of the migration child", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "p-"));
    writeFileSync(path.join(dir, "file"), "x");
    const proc = startServer({ PORT: "0", DATABASE_PATH: path.join(dir, "file", "data.sqlite") });
    expect(await proc.exited).not.toBe(0);
    const output = proc.output();
    const lines = output
      .trim()
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("npm warn"));
    expect(output).not.toMatch(/^\s+at /m);
    expect(lines).toHaveLength(1);
  }, 30_000);

  it("prints the first admin once, shuts down gracefully and keeps its data across restarts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "p-"));
    const port = await freePort();
    const env = {
      PORT: String(port),
      DATABASE_PATH: path.join(dir, "data.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      ADMIN_USERNAME: "",
      ADMIN_PASSWORD: "",
      ADMIN_EMAIL: "",
    };
    const url = `http://127.0.0.1:${port}`;

    const first = startServer(env);
    await waitForHealth(url, first);
    expect(first.output()).toMatch(/Erster Admin angelegt: Benutzername "admin", Passwort "[^"]+"/);
    expect(await stop(first.child, first.exited)).toBe(0);

    const second = startServer(env);
    await waitForHealth(url, second);
    expect(second.output()).not.toMatch(/Erster Admin angelegt/);
    expect(await stop(second.child, second.exited)).toBe(0);
  }, 60_000); // two real server boots (a loaded CI machine needs more than the default 20 s)
});
