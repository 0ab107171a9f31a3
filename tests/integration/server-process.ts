import { spawn } from "node:child_process";
import { createServer } from "node:net";

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The production server process (`server/index.ts`, what `npm start` runs after the build) on a
 * free port with `env` over the test's environment; `undefined` removes a variable.
 */
export async function startServerProcess(env: Record<string, string | undefined>) {
  const port = await freePort();
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    ...env,
  }))
    if (value !== undefined) merged[key] = value;
  const child = spawn(process.execPath, ["server/index.ts"], { env: merged });
  let output = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    exited,
    output: () => output,
    stderr: () => stderr,
    /** Resolves once /healthz says "OK" (the boot is done); throws when the process exits first. */
    async healthy() {
      let gone = false;
      void exited.then(() => {
        gone = true;
      });
      while (!gone) {
        const text = await fetch(`${url}/healthz`)
          .then((res) => res.text())
          .catch(() => "");
        if (text === "OK") return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`server exited before it was healthy:\n${output}`);
    },
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
