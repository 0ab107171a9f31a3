// `npm run bench:admin`: seeds 100,000 requests, then measures the server time (loopback latency) of
// the requests page with and without a search term and of the dashboard. Goal: p95 ≤ 50 ms.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { benchAdminToken, startBenchServer } from "./bench-server.ts";

const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), "anfrage-bench-admin-"));
const databasePath = path.join(dir, "bench.sqlite");

const server = await startBenchServer(Number(process.env.BENCH_PORT ?? 3390), {
  DATABASE_PATH: databasePath,
});
try {
  // Seed beside the running server (WAL): realistic German data with varied words.
  const first = [
    "Anna",
    "Jonas",
    "Lea",
    "Mehmet",
    "Sophie",
    "Lukas",
    "Marie",
    "Paul",
    "Özlem",
    "Jörg",
  ];
  const last = [
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Schulz",
    "Hoffmann",
  ];
  const trades = [
    "Bäckerei",
    "Zahnarztpraxis",
    "Autohaus",
    "Steuerkanzlei",
    "Hotel",
    "Fitnessstudio",
    "Handwerksbetrieb",
    "Onlineshop",
  ];
  const ideas = [
    "Terminbuchung",
    "Lagerverwaltung",
    "Kundenportal",
    "Rechnungsstellung",
    "Schichtplanung",
    "Bestell-App",
  ];
  const db = new Database(databasePath);
  db.pragma("journal_mode = WAL");
  const insert = db.prepare(
    "INSERT INTO requests (name, email, phone, company_description, description, status, archived, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const started = performance.now();
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      const name = `${first[i % 10]} ${last[Math.floor(i / 10) % 10]}`;
      const trade = trades[i % trades.length];
      const idea = ideas[i % ideas.length];
      const at = now - (COUNT - i) * 60_000;
      insert.run(
        `${name} ${i}`,
        `kunde${i}@example.com`,
        `+49 30 ${String(1_000_000 + i).slice(0, 4)} ${String(i).padStart(5, "0")}`,
        `${trade} mit ${(i % 40) + 2} Mitarbeitenden in Berlin`,
        `Wir suchen eine Software für ${idea}. Anfrage Nummer ${i}.`,
        ["New", "In Progress", "Done"][i % 3],
        i % 10 === 0 ? 1 : 0,
        at,
        at,
      );
    }
  })();
  db.close();
  console.log(`Seeded ${COUNT} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const token = await benchAdminToken(server);

  async function measure(label: string, pathname: string) {
    const times: number[] = [];
    for (let i = 0; i < RUNS + 10; i++) {
      const t = performance.now();
      const res = await fetch(`${server.url}${pathname}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}`);
      if (i >= 10) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) =>
      times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(`${label.padEnd(42)} p50 ${p(0.5).padStart(6)} ms   p95 ${p(0.95).padStart(6)} ms`);
  }
  console.log(
    `\n${RUNS} sequential requests each (after 10 warm-up), ${COUNT} requests in the database:`,
  );
  await measure("GET /admin/requests", "/admin/requests");
  await measure(
    "GET /admin/requests?q=müller bäckerei",
    "/admin/requests?q=m%C3%BCller+b%C3%A4ckerei",
  );
  await measure(
    "GET /admin/requests?q=terminbuchung&status=New",
    "/admin/requests?q=terminbuchung&status=New",
  );
  await measure("GET /admin/requests?sort=oldest&page=50", "/admin/requests?sort=oldest&page=50");
  await measure("GET /admin/dashboard", "/admin/dashboard");
  await measure("GET /api/admin/stats", "/api/admin/stats");
} finally {
  await server.stop();
}
