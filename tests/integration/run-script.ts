import { execFile } from "node:child_process";

/**
 * Runs one of `scripts/` (`npm run admin:*`) without blocking this process: the server under test
 * lives in it, and an event loop blocked for seconds (spawnSync) closes its idle keep-alive
 * connections late, as the next fetch reuses one (ECONNRESET on a loaded machine).
 */
export function runScript(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env, encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({
        status: error ? (typeof error.code === "number" ? error.code : null) : 0,
        stdout,
        stderr,
      }),
    );
  });
}
