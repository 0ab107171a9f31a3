// `npm run bench:landing`: the landing page `/` against a bare React Router 8 page (tests/bench/bare:
// one route, one SQLite query, a Conform form) served by the same Express stack, both production
// builds, measured alternately in one run with autocannon (BENCH_CONNECTIONS=20, BENCH_SECONDS=10
// per round, BENCH_ROUNDS=2 rounds each, after a short warm-up). Goal: landing ÷ bare
// throughput ≥ 1.0 and the landing p99 ≤ the bare page's p99. The app build comes from $BUILD_DIR
// (no rebuild); the bare page is built into build-bench-bare/ when missing (BENCH_REBUILD=1 forces).
// Each round also reports the server's CPU time per request (utime + stime from /proc/<pid>/stat),
// the figure that compares best on a shared machine. BENCH_ENCODING sets an Accept-Encoding header
// for both pages (e.g. "gzip, deflate, br" like a browser; none by default, like wrk).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { runtimeArgs, runtimeEnv } from "../server/runtime.ts";
import { startBenchServer } from "./bench-server.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ENCODING = process.env.BENCH_ENCODING;
const BASE = Number(process.env.E2E_PORT_BASE ?? 4800);
const ROOT = path.resolve(import.meta.dirname, "..");
const BARE_BUILD = path.join(ROOT, "build-bench-bare");

if (process.env.BENCH_REBUILD === "1" || !existsSync(path.join(BARE_BUILD, "server/index.js"))) {
  execFileSync("npx", ["react-router", "build", "tests/bench/bare"], {
    cwd: ROOT,
    stdio: "ignore",
  });
}

async function waitFor(url: string, child: ChildProcess) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bare server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error("bare server did not start within 30 s");
    // Polling the port until the server listens (no event to wait for across processes).
    await new Promise((r) => setTimeout(r, 100));
  }
}

const landing = await startBenchServer(BASE + 10);
const bareDir = mkdtempSync(path.join(tmpdir(), "anfrage-bare-"));
const bareChild = spawn(
  process.execPath,
  // The same runtime (V8 flags, allocator) as the app server.
  runtimeArgs(path.join(ROOT, "tests/bench/bare/server.ts")),
  {
    stdio: ["ignore", "ignore", "inherit"],
    env: runtimeEnv({
      ...process.env,
      NODE_ENV: "production",
      PORT: String(BASE + 11),
      HOST: "127.0.0.1",
      BARE_DATABASE_PATH: path.join(bareDir, "bare.sqlite"),
    }),
  },
);
const bareUrl = `http://127.0.0.1:${BASE + 11}`;

type Round = {
  target: string;
  requestsPerSecond: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  errors: number;
};
/** CPU time the process used so far, in ms (Linux; clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const run = (url: string, seconds: number) =>
  autocannon({
    url: `${url}/`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: ENCODING ? { "accept-encoding": ENCODING } : {},
  });

try {
  await waitFor(`${bareUrl}/`, bareChild);
  const htmlKb = async (url: string) =>
    +((await (await fetch(`${url}/`)).text()).length / 1024).toFixed(1);
  const sizes = { landing: await htmlKb(landing.url), bare: await htmlKb(bareUrl) };
  await run(landing.url, 2);
  await run(bareUrl, 2);
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const [target, url, pid] of [
      ["landing", landing.url, landing.pid],
      ["bare", bareUrl, bareChild.pid as number],
    ] as const) {
      const cpuBefore = cpuMs(pid);
      const result = await run(url, SECONDS);
      rounds.push({
        target,
        requestsPerSecond: +result.requests.average.toFixed(0),
        p99Ms: result.latency.p99,
        cpuMsPerRequest: +((cpuMs(pid) - cpuBefore) / Math.max(1, result.requests.total)).toFixed(
          2,
        ),
        errors: result.errors + result.non2xx,
      });
    }
  }
  console.log(
    `bench:landing autocannon -c${CONNECTIONS} ${SECONDS} s × ${ROUNDS} rounds, alternating, Accept-Encoding ${ENCODING ?? "none"}; HTML landing ${sizes.landing} KB, bare ${sizes.bare} KB`,
  );
  console.table(rounds);
  const mean = (target: string, key: "requestsPerSecond" | "p99Ms" | "cpuMsPerRequest") => {
    const list = rounds.filter((r) => r.target === target).map((r) => r[key]);
    return list.reduce((a, b) => a + b, 0) / list.length;
  };
  const ratio = mean("landing", "requestsPerSecond") / mean("bare", "requestsPerSecond");
  const p99 = { landing: mean("landing", "p99Ms"), bare: mean("bare", "p99Ms") };
  const errors = rounds.reduce((a, r) => a + r.errors, 0);
  const pass = ratio >= 1 && p99.landing <= p99.bare && errors === 0;
  console.log(
    JSON.stringify({
      landingPerSecond: Math.round(mean("landing", "requestsPerSecond")),
      barePerSecond: Math.round(mean("bare", "requestsPerSecond")),
      ratio: +ratio.toFixed(2),
      landingP99Ms: +p99.landing.toFixed(1),
      bareP99Ms: +p99.bare.toFixed(1),
      landingCpuMsPerRequest: +mean("landing", "cpuMsPerRequest").toFixed(2),
      bareCpuMsPerRequest: +mean("bare", "cpuMsPerRequest").toFixed(2),
      errors,
    }),
  );
  console.log(
    `bench:landing goal landing÷bare ≥ 1.00 and landing p99 ≤ bare p99: ratio ${ratio.toFixed(2)}, p99 ${p99.landing.toFixed(1)} vs ${p99.bare.toFixed(1)} ms → ${pass ? "PASS" : "FAIL"}`,
  );
} finally {
  bareChild.kill("SIGTERM");
  await landing.stop();
  rmSync(bareDir, { recursive: true, force: true });
}
