// `npm run bench:export`: seeds BENCH_REQUESTS requests (100,000; scripts/bench-admin-seed.ts)
// beside the production server, then downloads the CSV export of the list (open tab, newest first,
// and a broad search, the smaller first) BENCH_ROUNDS times and reports its time, its size and the server's peak RSS
// (VmHWM of /proc/<pid>/status) before and after (the goal: constant memory, ≤ 30 s at 1M). While
// each export runs, another process asks /healthz every 50 ms: the slowest answer shows whether
// the export holds up other requests. Run it from another checkout's directory (`cd ../other && node
// <this file>`) to measure that checkout's build with the same seed and the same measurements.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { copyBenchDatabase, seedBenchRequests } from "./bench-admin-seed.ts";
import { benchAdminToken, startBenchServer } from "./bench-server.ts";

const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const dir = mkdtempSync(path.join(tmpdir(), "anfrage-bench-export-"));
const databasePath = path.join(dir, "bench.sqlite");

const copied = copyBenchDatabase(databasePath);
const server = await startBenchServer(Number(process.env.BENCH_PORT ?? 3391), {
  DATABASE_PATH: databasePath,
});
/** CPU time (user + system) the server process has used so far, in s. */
function serverCpuSeconds(): number {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks (USER_HZ = 100)
}
/** Peak and current resident set size of the server process, in MB. */
function serverMemory() {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0);
  return { peak: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
}

try {
  const seeded = () =>
    `Seeded ${COUNT} requests in ${seedBenchRequests(databasePath, COUNT).toFixed(1)} s`;
  console.log(`${copied ?? seeded()} (cwd ${process.cwd()})`);
  const token = await benchAdminToken(server).catch(() => benchAdminToken(server));
  const idle = serverMemory();
  console.log(
    `server before the exports: peak ${idle.peak.toFixed(0)} MB, RSS ${idle.rss.toFixed(0)} MB`,
  );

  async function exportOnce(label: string, query: string) {
    // The probe runs in its own process: this one is busy reading the export.
    const prober = spawn(
      process.execPath,
      [
        "-e",
        `let slowest = 0, probes = 0, stop = false;
         process.on("message", () => { stop = true; });
         while (!stop) {
           const t = performance.now();
           await (await fetch(process.argv[1] + "/healthz")).text();
           slowest = Math.max(slowest, performance.now() - t);
           probes += 1;
           await new Promise((r) => setTimeout(r, 50));
         }
         process.send({ slowest, probes }, () => process.exit(0));`,
        server.url,
      ],
      { stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    const probed = new Promise<{ slowest: number; probes: number }>((resolve) =>
      prober.once("message", (m) => resolve(m as { slowest: number; probes: number })),
    );
    const started = performance.now();
    const cpuBefore = serverCpuSeconds();
    const res = await fetch(`${server.url}/api/admin/requests/export.csv?${query}`, {
      headers: { authorization: `Bearer ${token}`, "accept-encoding": "identity" },
    });
    if (res.status !== 200) throw new Error(`export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as ReadableStream<Uint8Array>) {
      bytes += chunk.byteLength;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = serverCpuSeconds() - cpuBefore;
    prober.send("stop");
    const { slowest: slowestProbe, probes } = await probed;
    const memory = serverMemory();
    console.log(
      `${label.padEnd(28)} ${seconds.toFixed(1).padStart(6)} s (server CPU ${cpu.toFixed(1)} s)  ${(bytes / 1e6).toFixed(1).padStart(6)} MB  ${String(lines - 1).padStart(8)} rows  server peak ${memory.peak.toFixed(0)} MB (RSS now ${memory.rss.toFixed(0)} MB)  slowest /healthz ${slowestProbe.toFixed(0)} ms of ${probes}`,
    );
  }
  for (let round = 1; round <= ROUNDS; round++) {
    // The small export first: a peak that stays where the small one left it is flat memory.
    await exportOnce(`round ${round}: q=terminbuchung`, "q=terminbuchung");
    await exportOnce(`round ${round}: open tab`, "");
  }
} finally {
  await server.stop();
}
