import { readFileSync } from "node:fs";
import type Database from "better-sqlite3";
import { register } from "prom-client";
import { beforeAll, describe, expect, it } from "vitest";

// Before the app reads its env: the AI summary job runs its query (nothing is pending, so no call).
process.env.ANTHROPIC_API_KEY = "plan-test";

const { parseRequestListQuery } = await import("~/lib/request-list");
const { db } = await import("~/server/platform/db.server");
const { listRequestIds, listAllRequestIds, getStats, latestRequests, listAttributionSources } =
  await import("~/server/requests/queries.server");
const { adminRequestsJsonParts } = await import("~/server/requests/admin-list.server");
const { countQuarantined } = await import("~/server/requests/quarantine.server");
const { conversionStats } = await import("~/server/dashboard/conversion.server");
const { registerAppMetrics } = await import("~/server/platform/metrics.server");
const { summarizePending } = await import("~/server/ai/request-ai.server");
const { applyRetention } = await import("~/server/privacy/retention.server");
const { sweepUnreferencedUploads } = await import("~/server/uploads/sweep.server");
const { boardView } = await import("~/server/pipeline/board.server");
const { promiseStats } = await import("~/server/pipeline/promises.server");

// ADR 275: the query plan of every list, dashboard, /metrics and background query, planned with
// the statistics of the bench seed (db/query-plan-stats.json, captured by
// scripts/capture-query-stats.ts from a 100k seed scaled to 1M rows; a test database has none).
// A plan that reads all of `requests` — SCAN requests (the table or a full index) without a LIMIT,
// or with a sort of every row before the LIMIT — fails. The small partial indexes may be read whole.

const SMALL_INDEXES = [
  "requests_quarantined_idx",
  "requests_summary_pending_idx",
  "requests_summary_failed_idx",
  "requests_audio_key_idx",
  "requests_retention_idx",
];

type Recorded = { sql: string; params: unknown[] };
const recorded = new Map<string, Recorded>();

function record(client: Database.Database) {
  const prepare = client.prepare.bind(client);
  client.prepare = ((source: string) => {
    const statement = prepare(source);
    const proxy: Database.Statement = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (["all", "get", "iterate", "run"].includes(String(prop))) {
            recorded.set(`${source}\u0000${JSON.stringify(args)}`, { sql: source, params: args });
          }
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  }) as typeof client.prepare;
  return prepare;
}

let plain: (source: string) => Database.Statement;

beforeAll(async () => {
  const client = db().$client;
  const stats = JSON.parse(readFileSync("db/query-plan-stats.json", "utf8")) as {
    sqlite_stat1: { tbl: string; idx: string | null; stat: string }[];
  };
  client.exec("ANALYZE sqlite_schema");
  client.exec("DELETE FROM sqlite_stat1");
  const insert = client.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)");
  for (const row of stats.sqlite_stat1) insert.run(row.tbl, row.idx, row.stat);
  // Loads the statistics into the planner; later statements are planned with them.
  client.exec("ANALYZE sqlite_schema");
  // A few rows, so that every branch runs (the median of the first changes, a search hit).
  const request = client.prepare(
    `INSERT INTO requests (name, email, phone, company_description, description, summary, status, created_at, updated_at)
     VALUES ('Anna Müller', 'anna@example.com', '030 1234567', 'Bäckerei', 'Terminbuchung', 'ok', ?, ?, ?)`,
  );
  const now = Date.now();
  for (let i = 0; i < 3; i++) request.run(i ? "New" : "Done", now - i * 60_000, now - i * 60_000);
  client.exec(
    "UPDATE requests SET first_status_change_at = created_at + 1000 WHERE status = 'Done'",
  );
  plain = record(client);

  const admin = 1;
  for (const tab of ["active", "mine", "archived", "quarantine"]) {
    for (const extra of [
      "",
      "&status=New",
      "&assignment=assigned",
      "&assignment=unassigned",
      "&source=google",
      "&sort=oldest&page=50",
      "&sort=id-desc&page=50",
      "&sort=id-asc",
      "&q=terminbuchung",
      "&q=terminbuchung&status=New",
      "&q=müller bäckerei",
      "&q=terminbuchung&sort=oldest",
      "&q=terminbuchung&sort=newest&page=3",
      "&q=0301234",
      // The pipeline's filters (ADRs 345, 346).
      "&stage=demo",
      "&promise=overdue",
      "&promise=due",
      "&promise=overdue&sort=oldest&page=50",
    ]) {
      listRequestIds(parseRequestListQuery(new URLSearchParams(`tab=${tab}${extra}`)), admin);
    }
  }
  // The unpaginated API lists (GET /api/admin/requests and its filters, /archived, /api/requests).
  for (const options of [
    { archived: false },
    { archived: false, quarantined: true },
    { archived: false, assignedTo: admin },
    { archived: false, source: "google" },
    { archived: true },
    { archived: false, stage: "demo" },
    { archived: false, promise: "overdue" as const },
  ]) {
    adminRequestsJsonParts(listAllRequestIds(options));
  }
  listAttributionSources();
  getStats();
  latestRequests();
  countQuarantined();
  conversionStats();
  // The board (all, one admin's) and the dashboard's "Versprechen" (ADRs 346, 347).
  boardView();
  boardView(admin);
  promiseStats();
  registerAppMetrics();
  await register.metrics();
  await summarizePending();
  await applyRetention();
  await sweepUnreferencedUploads();
});

/** The plan's lines that read every row of `requests`. */
function fullReads(sql: string, params: unknown[]): string[] {
  const plan = plain(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  const limited = /\bLIMIT\b/i.test(sql) && !plan.some((p) => /TEMP B-TREE/.test(p.detail));
  return plan
    .map((p) => p.detail)
    .filter((detail) => /^SCAN requests\b/.test(detail))
    .filter((detail) => !SMALL_INDEXES.some((index) => detail.includes(index)))
    .filter(() => !limited);
}

describe("query plans with the 1M statistics", () => {
  it("read no query's whole requests table or index (list, dashboard, /metrics, jobs)", () => {
    const queries = [...recorded.values()].filter(
      (q) => /^\s*(SELECT|WITH)\b/i.test(q.sql) && /\brequests\b/.test(q.sql),
    );
    expect(queries.length).toBeGreaterThan(30);
    const offending = queries
      .map((q) => ({ sql: q.sql, scans: fullReads(q.sql, q.params) }))
      .filter((q) => q.scans.length);
    if (process.env.PRINT_PLANS) {
      for (const q of queries) {
        const plan = plain(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[];
        console.log(`${q.sql}\n  ${plan.map((p) => p.detail).join("\n  ")}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("would catch a count over the whole table", () => {
    expect(fullReads("SELECT count(*) FROM requests", [])).not.toEqual([]);
    expect(fullReads("SELECT id FROM requests ORDER BY name LIMIT 20", [])).not.toEqual([]);
  });
});
