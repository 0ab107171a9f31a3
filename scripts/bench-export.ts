// `npm run bench:export`: seeds BENCH_REQUESTS requests (100,000; scripts/bench-admin-seed.ts)
// beside the production server, then downloads the CSV export of the list (open tab, newest first,
// and a broad search) BENCH_ROUNDS times and reports its time, its size and the server's peak RSS
// (VmHWM of /proc/<pid>/status) before and after (issue 31: constant memory, ≤ 30 s at 1M). While
// each export runs, /healthz is asked every 100 ms: the slowest answer shows whether the export
// holds up other requests. Run it from another checkout's directory (`cd ../other && node
// <this file>`) to measure that checkout's build with the same seed and the same measurements.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { seedBenchRequests } from "./bench-admin-seed.ts";
import { benchAdminToken, startBenchServer } from "./bench-server.ts";

const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const dir = mkdtempSync(path.join(tmpdir(), "anfrage-bench-export-"));
const databasePath = path.join(dir, "bench.sqlite");

const server = await startBenchServer(Number(process.env.BENCH_PORT ?? 3391), {
  DATABASE_PATH: databasePath,
});
/** Peak and current resident set size of the server process, in MB. */
function serverMemory() {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0);
  return { peak: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
}

try {
  const seconds = seedBenchRequests(databasePath, COUNT);
  console.log(`Seeded ${COUNT} requests in ${seconds.toFixed(1)} s (cwd ${process.cwd()})`);
  const token = await benchAdminToken(server).catch(() => benchAdminToken(server));
  const idle = serverMemory();
  console.log(
    `server before the exports: peak ${idle.peak.toFixed(0)} MB, RSS ${idle.rss.toFixed(0)} MB`,
  );

  async function exportOnce(label: string, query: string) {
    let done = false;
    let slowestProbe = 0;
    let probes = 0;
    const prober = (async () => {
      while (!done) {
        const t = performance.now();
        await (await fetch(`${server.url}/healthz`)).text();
        slowestProbe = Math.max(slowestProbe, performance.now() - t);
        probes += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const started = performance.now();
    const res = await fetch(`${server.url}/api/admin/requests/export.csv?${query}`, {
      headers: { authorization: `Bearer ${token}`, "accept-encoding": "identity" },
    });
    if (res.status !== 200) throw new Error(`export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as ReadableStream<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    done = true;
    await prober;
    const memory = serverMemory();
    console.log(
      `${label.padEnd(28)} ${seconds.toFixed(1).padStart(6)} s  ${(bytes / 1e6).toFixed(1).padStart(6)} MB  ${String(lines - 1).padStart(8)} rows  server peak ${memory.peak.toFixed(0)} MB (RSS now ${memory.rss.toFixed(0)} MB)  slowest /healthz ${slowestProbe.toFixed(0)} ms of ${probes}`,
    );
  }
  for (let round = 1; round <= ROUNDS; round++) {
    await exportOnce(`round ${round}: open tab`, "");
    await exportOnce(`round ${round}: q=terminbuchung`, "q=terminbuchung");
  }
} finally {
  await server.stop();
}
