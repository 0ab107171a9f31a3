// `npm run bench:wrk`: the memory check of ADRs 297, 301 — `wrk -t2 -c20` on the landing page `/` for
// BENCH_SECONDS (default 60) against the production server as `npm start` runs it (build-server/
// launch.js with the embedded defaults: access log on, metrics port on), on a fresh data directory.
// Builds first (SKIP_BUILD=1 skips). Samples the server's VmRSS (/proc/<pid>/status) every 250 ms,
// reads /proc/<pid>/smaps at every new high (resident MB by kind: node binary, V8 heap pages, the
// malloc main arena, other anonymous memory) and prints the peak RSS (VmHWM), req/s, p99, the
// server's CPU ms per request and where the memory sat at the peak.
// BENCH_MEMORY_MAX=256M runs the server in a child memory cgroup of this process's own (cgroup v1
// or v2, where writable) with that limit, like the 256 MB machine; BENCH_APP_DIR runs another
// checkout's build (before/after pairs); BENCH_PORT, BENCH_CONNECTIONS, BENCH_THREADS, BENCH_ENV
// (extra `NAME=value` pairs, space separated) adjust it. Figures: docs/benchmarks.md.
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { cpuMs, statusMb } from "./proc-memory.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 4490);
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ".");
const MEMORY_MAX = process.env.BENCH_MEMORY_MAX;
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_ENV ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);

if (process.env.SKIP_BUILD !== "1") {
  execFileSync("npm", ["run", "build"], { cwd: APP_DIR, stdio: "ignore" });
}

const toBytes = (size: string) => {
  const m = /^(\d+)([KMG]?)$/i.exec(size.trim());
  if (!m) throw new Error(`BENCH_MEMORY_MAX: ${size}`);
  return Number(m[1]) * 1024 ** " KMG".indexOf((m[2] || " ").toUpperCase());
};

/** A child of this process's own memory cgroup with the limit; undefined where none can be made. */
function memoryCgroup(limit: number) {
  const lines = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  const v1 = lines.find((l) => /^\d+:memory:/.test(l))?.split(":")[2];
  const v2 = lines.find((l) => l.startsWith("0::"))?.slice(3);
  const candidates = [
    v1 !== undefined && {
      dir: path.join("/sys/fs/cgroup/memory", v1, `bench-wrk-${process.pid}`),
      file: "memory.limit_in_bytes",
      peak: "memory.max_usage_in_bytes",
    },
    v2 !== undefined && {
      dir: path.join("/sys/fs/cgroup", v2, `bench-wrk-${process.pid}`),
      file: "memory.max",
      peak: "memory.peak",
    },
  ].filter((c) => c !== false);
  for (const c of candidates) {
    try {
      mkdirSync(c.dir);
      writeFileSync(path.join(c.dir, c.file), String(limit));
      return c;
    } catch {
      try {
        rmdirSync(c.dir);
      } catch {}
    }
  }
  return undefined;
}
const cgroup = MEMORY_MAX ? memoryCgroup(toBytes(MEMORY_MAX)) : undefined;
if (MEMORY_MAX && !cgroup) console.warn("bench:wrk: no writable memory cgroup, running unlimited");

const dir = mkdtempSync(path.join(tmpdir(), "anfrage-wrk-"));
// Joins the cgroup first (this shell's PID), then becomes the launcher: the server is in the
// cgroup from its first byte. Logs go to /dev/null, as to a log collector that keeps up.
const launch = `${JSON.stringify(process.execPath)} build-server/launch.js`;
const child = spawn(
  "/bin/sh",
  ["-c", cgroup ? `echo $$ > ${cgroup.dir}/cgroup.procs && exec ${launch}` : `exec ${launch}`],
  {
    cwd: APP_DIR,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_PATH: path.join(dir, "db/data.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      METRICS_PORT: String(PORT + 1),
      ...EXTRA_ENV,
    },
  },
);
const pid = child.pid as number;
const url = `http://127.0.0.1:${PORT}`;

/** Resident MB of the server's mappings by kind (at the end of the run). */
function smapsByKind() {
  const kinds: Record<string, number> = {};
  let kind = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[3];
      const kb = (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / 1024;
      kind =
        name === ""
          ? kb === 256 || kb === 512
            ? "anonymous: V8 heap pages"
            : kb >= 60 * 1024
              ? "anonymous: reservations (malloc arenas, V8 cages)"
              : "anonymous: other"
          : name === "[heap]"
            ? "[heap] (malloc main arena)"
            : name.startsWith("[")
              ? "other"
              : name === realNode
                ? "node binary"
                : "other files";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, +v.toFixed(1)]));
}
const realNode = execFileSync("readlink", ["-f", process.execPath], { encoding: "utf8" }).trim();

function wrk(seconds: number) {
  return new Promise<string>((resolve, reject) => {
    const run = spawn(
      "wrk",
      [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", `${url}/`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    run.stdout.on("data", (d) => {
      out += d;
    });
    run.on("error", reject);
    run.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk: ${code}`))));
  });
}
const ms = (value: string, unit: string) =>
  Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? 1);

try {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await (await fetch(`${url}/healthz`)).text()) === "OK") break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not answer /healthz OK within 60 s");
    // Polling the port until the server is up (no event to wait for across processes).
    await new Promise((r) => setTimeout(r, 200));
  }
  const first = await fetch(`${url}/`);
  if (first.status !== 200) throw new Error(`GET / answered ${first.status}`);
  const htmlKb = +((await first.arrayBuffer()).byteLength / 1024).toFixed(1);
  const idle = { rssMb: statusMb(pid, "VmRSS"), hwmMb: statusMb(pid, "VmHWM") };
  const load = loadavg()[0];
  const cpuBefore = cpuMs(pid);
  let peak = { rssMb: 0, at: 0, byKind: {} as Record<string, number> };
  const started = Date.now();
  const timer = setInterval(() => {
    const rssMb = statusMb(pid, "VmRSS");
    if (rssMb > peak.rssMb) {
      peak = { rssMb, at: (Date.now() - started) / 1000, byKind: smapsByKind() };
    }
  }, 250);
  const out = await wrk(SECONDS);
  clearInterval(timer);
  const cpu = cpuMs(pid) - cpuBefore;
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const p99 = /99%\s+([\d.]+)(us|ms|s|m)\b/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: (.*)/.exec(out)?.[1];
  const result = {
    when: new Date().toISOString().slice(11, 16),
    load: +load.toFixed(1),
    app: APP_DIR,
    env: process.env.BENCH_ENV ?? "",
    memoryMax: cgroup ? MEMORY_MAX : "none",
    seconds: SECONDS,
    htmlKb,
    requestsPerSecond: +(total / SECONDS).toFixed(1),
    p99Ms: p99 ? +ms(p99[1], p99[2]).toFixed(1) : null,
    cpuMsPerRequest: +(cpu / Math.max(1, total)).toFixed(3),
    non2xx,
    socketErrors: socketErrors ?? "none",
    idleRssMb: +idle.rssMb.toFixed(1),
    peakRssMb: +statusMb(pid, "VmHWM").toFixed(1),
    sampledPeakRssMb: +peak.rssMb.toFixed(1),
    sampledPeakAtS: peak.at,
    atPeak: peak.byKind,
    endByKind: smapsByKind(),
    cgroupPeakMb: cgroup
      ? +(Number(readFileSync(path.join(cgroup.dir, cgroup.peak), "utf8")) / 1024 ** 2).toFixed(1)
      : undefined,
  };
  console.log(JSON.stringify(result));
} finally {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  rmSync(dir, { recursive: true, force: true });
  if (cgroup && existsSync(cgroup.dir)) {
    try {
      rmdirSync(cgroup.dir);
    } catch {}
  }
}
