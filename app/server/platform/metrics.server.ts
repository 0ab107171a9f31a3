// Prometheus metrics of the app (ADR 094), on prom-client's default registry, which the Express server
// serves on the internal METRICS_PORT (server/metrics.ts). Values that live in the database are read at
// scrape time (one indexed COUNT each, over a small index or the trigger-kept counts of ADR 275),
// so no business module has to remember to count.
import { Gauge, register } from "prom-client";
import { getConfiguration } from "../configuration/configuration.server";
import { countStoredRequests } from "../requests/counts.server";
import { countToday } from "../spam/budgets.server";
import { db } from "./db.server";
import { freeDiskBytes } from "./disk.server";
import { env, replicationOn } from "./env.server";

const count = (sql: string) =>
  (db().$client.prepare(sql).get() as { n: number | null } | undefined)?.n ?? 0;

function gauge(name: string, help: string, labelNames: string[], collect: (g: Gauge) => void) {
  if (register.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    collect() {
      try {
        collect(this);
      } catch {
        // A closed database during shutdown: skip this sample.
      }
    },
  });
}

/** Registers the database, disk and replication gauges once per process. */
export function registerAppMetrics() {
  gauge("anfrage_requests_stored", "Anfragen (leads) in the database; rate via delta()", [], (g) =>
    g.set(countStoredRequests()),
  );
  gauge("anfrage_requests_created_last_hour", "Anfragen created in the last hour", [], (g) =>
    g.set(count(`SELECT count(*) AS n FROM requests WHERE created_at > ${Date.now() - 3_600_000}`)),
  );
  gauge("anfrage_bookings_stored", "Booked appointments by status", ["status"], (g) => {
    g.reset();
    const rows = db()
      .$client.prepare("SELECT status, count(*) AS n FROM appointments GROUP BY status")
      .all() as { status: string; n: number }[];
    for (const row of rows) g.set({ status: row.status }, row.n);
  });
  gauge(
    "anfrage_outbox_mails",
    "Outbox mails by status (pending = backlog, failed = given up)",
    ["status"],
    (g) => {
      for (const status of ["pending", "sent", "failed"]) {
        g.set(
          { status },
          count(`SELECT count(*) AS n FROM mail_outbox WHERE status = '${status}'`),
        );
      }
    },
  );
  gauge(
    "anfrage_outbox_failed_attempts_pending",
    "Pending outbox mails that have failed at least once (retrying)",
    [],
    (g) =>
      g.set(
        count("SELECT count(*) AS n FROM mail_outbox WHERE status = 'pending' AND attempts > 0"),
      ),
  );
  gauge(
    "anfrage_outbox_oldest_pending_age_seconds",
    "Age of the oldest pending outbox mail (0 without backlog)",
    [],
    (g) => {
      const oldest = count("SELECT min(created_at) AS n FROM mail_outbox WHERE status = 'pending'");
      g.set(oldest ? Math.max(0, (Date.now() - oldest) / 1000) : 0);
    },
  );
  gauge(
    "anfrage_ai_summary_failures",
    "Anfragen whose AI summary failed at least once and is still missing",
    [],
    (g) =>
      g.set(
        count(
          "SELECT count(*) AS n FROM requests INDEXED BY requests_summary_failed_idx WHERE summary IS NULL AND summary_attempts > 0",
        ),
      ),
  );
  // Spam and cost defence (ADR 255). The quarantine is read through its partial index.
  gauge(
    "anfrage_requests_quarantined",
    "Anfragen in the spam quarantine (waiting for an admin's review)",
    [],
    (g) => g.set(count("SELECT count(*) AS n FROM requests WHERE quarantined_at IS NOT NULL")),
  );
  gauge(
    "anfrage_ai_calls_today",
    "AI calls made today (Berlin day; summaries and manual)",
    [],
    (g) => g.set(countToday("ai-calls") + countToday("ai-manual")),
  );
  gauge(
    "anfrage_ai_daily_limit",
    "Automatic AI summaries allowed per Berlin day (ai.dailyLimit)",
    [],
    (g) => g.set(getConfiguration().ai.dailyLimit),
  );
  gauge(
    "anfrage_ai_manual_daily_limit",
    "Admins' own AI actions allowed per Berlin day (ai.manualDailyLimit)",
    [],
    (g) => g.set(getConfiguration().ai.manualDailyLimit),
  );
  gauge(
    "anfrage_mails_held_by_budget_today",
    "Mails held back by a budget today (Berlin day), by budget",
    ["budget"],
    (g) => g.set({ budget: "booking_invitation" }, countToday("mails-held")),
  );
  gauge("anfrage_disk_free_bytes", "Free bytes on the data volume", [], (g) => {
    const free = freeDiskBytes();
    if (Number.isFinite(free)) g.set(free);
  });
  gauge(
    "anfrage_disk_min_free_bytes",
    "Below this free space submissions refuse files (DISK_MIN_FREE_MB)",
    [],
    (g) => g.set(env().DISK_MIN_FREE_MB * 1024 * 1024),
  );
  // Only where /metrics is served (METRICS_PORT > 0): otherwise nobody reads the lag, and the poll
  // would ask a Litestream endpoint that does not exist once a second.
  if (replicationOn() && env().METRICS_PORT > 0) registerReplicationMetrics();
}

/** Litestream's metrics endpoint as server/launch.ts configures it (METRICS_PORT + 1, loopback). */
export const litestreamMetricsUrl = (metricsPort: number) =>
  `http://127.0.0.1:${metricsPort + 1}/metrics`;

/** Sum of the samples of one metric (all label sets) in Prometheus text format. */
export function sumSamples(text: string, name: string, filter: RegExp = /.*/): number | undefined {
  let sum: number | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || !/[\s{]/.test(line[name.length] ?? "")) continue;
    if (!filter.test(line)) continue;
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}

/** Litestream's local (shadow WAL) and replica positions from its metrics text. */
export function replicationBehindBytes(text: string): number | undefined {
  const shadowIndex = sumSamples(text, "litestream_shadow_wal_index");
  const shadowSize = sumSamples(text, "litestream_shadow_wal_size");
  const replicaIndex = sumSamples(text, "litestream_replica_wal_index");
  const replicaOffset = sumSamples(text, "litestream_replica_wal_offset");
  if ([shadowIndex, shadowSize, replicaIndex, replicaOffset].some((v) => v === undefined)) {
    return undefined;
  }
  if (replicaIndex === shadowIndex) return Math.max(0, (shadowSize ?? 0) - (replicaOffset ?? 0));
  return shadowSize;
}

/**
 * Replication lag, from Litestream's own metrics (polled every second): bytes of local WAL the replica
 * does not have yet, and seconds since the replica last had everything (0 while it is current).
 */
function registerReplicationMetrics() {
  if (register.getSingleMetric("anfrage_replication_lag_seconds")) return;
  const url = litestreamMetricsUrl(env().METRICS_PORT);
  let behind: number | undefined;
  let currentAt = Date.now();
  let syncErrors = 0;
  let up = 0;
  async function poll() {
    try {
      const text = await (await fetch(url, { signal: AbortSignal.timeout(2000) })).text();
      behind = replicationBehindBytes(text);
      if (behind === 0) currentAt = Date.now();
      syncErrors = sumSamples(text, "litestream_sync_error_count") ?? 0;
      up = 1;
    } catch {
      up = 0;
    }
  }
  const timer = setInterval(poll, 1000);
  timer.unref();
  void poll();
  new Gauge({
    name: "anfrage_replication_lag_seconds",
    help: "Seconds since the replica last had every local write (0 = replica current)",
    collect() {
      this.set(
        up && behind !== undefined
          ? behind === 0
            ? 0
            : (Date.now() - currentAt) / 1000
          : Number.NaN,
      );
    },
  });
  new Gauge({
    name: "anfrage_replication_lag_bytes",
    help: "Bytes of local WAL not yet in the replica",
    collect() {
      this.set(up && behind !== undefined ? behind : Number.NaN);
    },
  });
  new Gauge({
    name: "anfrage_replication_up",
    help: "1 when Litestream's metrics answer",
    collect() {
      this.set(up);
    },
  });
  new Gauge({
    name: "anfrage_replication_sync_errors",
    help: "Litestream sync errors since its start",
    collect() {
      this.set(syncErrors);
    },
  });
}
