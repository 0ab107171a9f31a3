// `npm run bench:load`: 60 s of mixed load on 127.0.0.1 against the production build (no rebuild):
// landing page, submissions with a small file, admin request list. Reports throughput, p50/p99 per
// kind and overall, errors, the server's CPU time per request and its peak RSS (VmHWM), and the
// whole machine's peak (the sampled sum over the server's process tree). BENCH_SECONDS,
// BENCH_CONCURRENCY, BENCH_PORT adjust it; BENCH_REPLICA=s3 (a loopback S3 stand-in) or =file runs
// it with Litestream replicating, as on Fly with a bucket. Figures: docs/benchmarks.md.
import { mkdtempSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startS3StandIn } from "../tests/s3-stand-in.ts";
import { benchAdminToken, startBenchServer } from "./bench-server.ts";
import { cpuMs, processTree, statusMb, watchTree } from "./proc-memory.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 4480);

const REPLICA = process.env.BENCH_REPLICA;
const s3 = REPLICA === "s3" ? await startS3StandIn("bench-replica") : undefined;
const replicaDir = REPLICA === "file" ? mkdtempSync(path.join(tmpdir(), "bench-replica-")) : "";
// Every worker is its own client, as behind Fly's proxy (Fly-Client-IP): the server lets one
// client hold only a quarter of its request slots (ADR 197).
const server = await startBenchServer(PORT, {
  SUBMISSION_RATE_LIMIT: "1000000/1h",
  TRUST_PROXY: "fly",
  ...(s3 ? s3.env : {}),
  ...(replicaDir ? { LITESTREAM_REPLICA_URL: `file://${replicaDir}` } : {}),
});
// With replication the launcher has become Litestream; the Node server is its child.
const node = realpathSync(process.execPath);
const serverPid =
  processTree(server.pid).find((pid) => readlinkSync(`/proc/${pid}/exe`) === node) ?? server.pid;
const tree = watchTree(server.pid);
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const vm = (field: string) => statusMb(serverPid, field);

try {
  const token = await benchAdminToken(server);

  const pdf = Buffer.alloc(20 * 1024, 0x20);
  Buffer.from("%PDF-1.4\n").copy(pdf);
  Buffer.from("\n%%EOF\n").copy(pdf, pdf.length - 7);
  let n = 0;
  const kinds = {
    landing: { weight: 5, run: (client: Headers) => fetch(`${server.url}/`, { headers: client }) },
    submission: {
      weight: 2,
      run: (client: Headers) => {
        const form = new FormData();
        form.set("name", "Last Test");
        form.set("email", `last${n++}@example.com`);
        form.set("phone", "+49 30 1234567");
        form.set("companyDescription", "Eine Bäckerei mit drei Filialen in Berlin");
        form.set("description", "Eine App zum Vorbestellen von Brötchen.");
        form.append("attachments", new Blob([pdf], { type: "application/pdf" }), "plan.pdf");
        return fetch(`${server.url}/api/requests`, { method: "POST", body: form, headers: client });
      },
    },
    adminList: {
      weight: 3,
      run: (client: Headers) =>
        fetch(`${server.url}/admin/requests`, {
          headers: { ...Object.fromEntries(client), authorization: `Bearer ${token}` },
        }),
    },
  };
  const wheel = Object.entries(kinds).flatMap(
    ([name, k]) => Array(k.weight).fill(name) as string[],
  );
  const times: Record<string, number[]> = { landing: [], submission: [], adminList: [] };
  const errors: Record<string, number> = { landing: 0, submission: 0, adminList: 0 };
  const deadline = performance.now() + SECONDS * 1000;
  let turn = 0;

  async function worker(_: unknown, i: number) {
    const client = new Headers({ "fly-client-ip": `10.0.${i >> 8}.${i & 255}` });
    while (performance.now() < deadline) {
      const kind = wheel[turn++ % wheel.length];
      const started = performance.now();
      try {
        const res = await kinds[kind as keyof typeof kinds].run(client);
        await res.arrayBuffer();
        if (res.status >= 400) errors[kind]++;
        else times[kind].push(performance.now() - started);
      } catch {
        errors[kind]++;
      }
    }
  }
  const cpuBefore = cpuMs(serverPid);
  const began = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - began) / 1000;
  const cpuDuring = cpuMs(serverPid) - cpuBefore;
  const machine = tree.stop();

  const all = Object.values(times)
    .flat()
    .sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const rows = Object.entries(times).map(([kind, list]) => {
    const sorted = list.sort((a, b) => a - b);
    return {
      kind,
      ok: sorted.length,
      errors: errors[kind],
      p50: +pct(sorted, 50).toFixed(1),
      p99: +pct(sorted, 99).toFixed(1),
    };
  });
  console.log(
    `bench:load ${SECONDS} s, ${CONCURRENCY} concurrent, mix landing:submission:adminList = 5:2:3`,
  );
  console.table(rows);
  console.log(
    JSON.stringify({
      seconds: +elapsed.toFixed(1),
      requests: all.length + errorCount,
      throughputPerSecond: +(all.length / elapsed).toFixed(1),
      p50Ms: +pct(all, 50).toFixed(1),
      p99Ms: +pct(all, 99).toFixed(1),
      errors: errorCount,
      serverCpuMsPerRequest: +(cpuDuring / (all.length + errorCount)).toFixed(2),
      peakRssMb: +vm("VmHWM").toFixed(1),
      rssAtEndMb: +vm("VmRSS").toFixed(1),
      machinePeakMb: +machine.peakTotalMb.toFixed(1),
      replica: REPLICA ?? "off",
    }),
  );
  if (REPLICA) {
    console.log("peak RSS (VmHWM) per process of the server's tree:");
    console.table(machine.processes.map((p) => ({ ...p, peakMb: +p.peakMb.toFixed(1) })));
  }
} finally {
  await server.stop();
  await s3?.close();
  if (replicaDir) rmSync(replicaDir, { recursive: true, force: true });
}
