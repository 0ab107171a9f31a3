// `npm run bench:load`: 60 s of mixed load on 127.0.0.1 against the production build (no rebuild):
// landing page, submissions with a small file, admin request list. Reports throughput, p50/p99 per
// kind and overall, errors, and the server's peak RSS (VmHWM). BENCH_SECONDS, BENCH_CONCURRENCY,
// BENCH_PORT adjust it. Figures: docs/benchmarks.md.
import { readFileSync } from "node:fs";
import { benchAdminToken, startBenchServer } from "./bench-server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 4480);

const server = await startBenchServer(PORT, { SUBMISSION_RATE_LIMIT: "1000000/1h" });
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const vm = (field: string) => {
  const line = readFileSync(`/proc/${server.pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, "") ?? 0) / 1024;
};

try {
  const token = await benchAdminToken(server);

  const pdf = Buffer.alloc(20 * 1024, 0x20);
  Buffer.from("%PDF-1.4\n").copy(pdf);
  Buffer.from("\n%%EOF\n").copy(pdf, pdf.length - 7);
  let n = 0;
  const kinds = {
    landing: { weight: 5, run: () => fetch(`${server.url}/`) },
    submission: {
      weight: 2,
      run: () => {
        const form = new FormData();
        form.set("name", "Last Test");
        form.set("email", `last${n++}@example.com`);
        form.set("phone", "+49 30 1234567");
        form.set("companyDescription", "Eine Bäckerei mit drei Filialen in Berlin");
        form.set("description", "Eine App zum Vorbestellen von Brötchen.");
        form.append("attachments", new Blob([pdf], { type: "application/pdf" }), "plan.pdf");
        return fetch(`${server.url}/api/requests`, { method: "POST", body: form });
      },
    },
    adminList: {
      weight: 3,
      run: () =>
        fetch(`${server.url}/admin/requests`, { headers: { authorization: `Bearer ${token}` } }),
    },
  };
  const wheel = Object.entries(kinds).flatMap(
    ([name, k]) => Array(k.weight).fill(name) as string[],
  );
  const times: Record<string, number[]> = { landing: [], submission: [], adminList: [] };
  const errors: Record<string, number> = { landing: 0, submission: 0, adminList: 0 };
  const deadline = performance.now() + SECONDS * 1000;
  let turn = 0;

  async function worker() {
    while (performance.now() < deadline) {
      const kind = wheel[turn++ % wheel.length];
      const started = performance.now();
      try {
        const res = await kinds[kind as keyof typeof kinds].run();
        await res.arrayBuffer();
        if (res.status >= 400) errors[kind]++;
        else times[kind].push(performance.now() - started);
      } catch {
        errors[kind]++;
      }
    }
  }
  const began = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - began) / 1000;

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
      peakRssMb: +vm("VmHWM").toFixed(1),
      rssAtEndMb: +vm("VmRSS").toFixed(1),
    }),
  );
} finally {
  await server.stop();
}
