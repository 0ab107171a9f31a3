// `npm run bench:coldstart`: process start → first 200 on `/`, through the production start path
// (`node server/launch.ts`, the Docker CMD) without rebuilding. Runs BENCH_RUNS (5) times on a fresh
// data directory (migrations + first admin) and as often on the existing one; prints min/median/max.
// `BENCH_DATABASE=<file>`: the existing data directory starts from a copy of that seeded database
// (the goal: cold start ≤ 1 s at 1M requests).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { copyBenchDatabase } from "./bench-admin-seed.ts";

// The production start runs build-server/ (server/*.ts without types, ADR 132); made here when an
// older build lacks it (milliseconds, not an app rebuild).
if (!existsSync("build-server/index.js"))
  execFileSync(process.execPath, ["scripts/build-server.ts"]);

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 4481);
const url = `http://127.0.0.1:${PORT}/`;

async function once(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    // The launcher applies the runtime flags itself (server/runtime.ts): that re-exec is counted.
    ["build-server/launch.js"],
    {
      stdio: "ignore",
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATABASE_PATH: path.join(dataDir, "sqlite.db"),
        UPLOADS_DIR: path.join(dataDir, "uploads"),
        SESSION_SECRET: "coldstart",
        ADMIN_PASSWORD: "coldstart-passwort",
        METRICS_PORT: "0",
        LOG_LEVEL: "error",
      },
    },
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - started;
      } catch {}
      // Polling granularity of the measurement (5 ms), not a wait for an event.
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

const stats = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    minMs: Math.round(sorted[0]),
    medianMs: Math.round(sorted[Math.floor(sorted.length / 2)]),
    maxMs: Math.round(sorted[sorted.length - 1]),
  };
};

const fresh: number[] = [];
const existing: number[] = [];
const kept = mkdtempSync(path.join(tmpdir(), "anfrage-coldstart-"));
const copied = copyBenchDatabase(path.join(kept, "sqlite.db"));
if (copied) console.log(`${copied} into the existing data directory`);
await once(kept);
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(path.join(tmpdir(), "anfrage-coldstart-"));
  fresh.push(await once(dir));
  rmSync(dir, { recursive: true, force: true });
  existing.push(await once(kept));
}
rmSync(kept, { recursive: true, force: true });
console.log(`bench:coldstart, ${RUNS} runs each, process start → first 200 on /`);
console.log(JSON.stringify({ freshDataDir: stats(fresh), existingDataDir: stats(existing) }));
