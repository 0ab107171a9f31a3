// Prometheus: HTTP request metrics labelled by route id (never the raw path) and the /metrics endpoint
// on a separate internal port (METRICS_PORT), scraped by Fly through fly.toml's [metrics] (ADR 094).
import { createServer, type Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from "prom-client";
import type { RouteLabel } from "./route-match.ts";

function metric<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

/** Counts and times every request by method, route id and status. */
export function httpMetrics(match: (url: string) => RouteLabel) {
  const requests = metric(
    "anfrage_http_requests_total",
    () =>
      new Counter({
        name: "anfrage_http_requests_total",
        help: "HTTP requests by method, route id and status",
        labelNames: ["method", "route", "status"],
      }),
  );
  const duration = metric(
    "anfrage_http_request_duration_seconds",
    () =>
      new Histogram({
        name: "anfrage_http_request_duration_seconds",
        help: "HTTP request duration by method and route id",
        labelNames: ["method", "route"],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      }),
  );
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.once("finish", () => {
      const route = match(req.originalUrl).id;
      const method = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].includes(req.method)
        ? req.method
        : "OTHER";
      requests.inc({ method, route, status: String(res.statusCode) });
      duration.observe({ method, route }, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  };
}

/**
 * The request bound's state (ADR 195, 321): requests in work and waiting for a slot, bodies in
 * transit in a slot (uploads, and small bodies that did not fit the read-ahead budget), and the
 * bytes of small bodies read ahead of the bound.
 */
export function concurrencyMetrics(
  stats: () => {
    active: number;
    waiting: number;
    inTransit: number;
    smallInTransit: number;
    readAheadBytes: number;
  },
) {
  for (const [name, help, key] of [
    [
      "anfrage_http_requests_in_work",
      "Requests being worked on (at most MAX_CONCURRENT_REQUESTS)",
      "active",
    ],
    [
      "anfrage_http_requests_waiting",
      "Requests waiting for a slot (MAX_CONCURRENT_REQUESTS reached)",
      "waiting",
    ],
    [
      "anfrage_http_requests_body_in_transit",
      "Requests in work whose body is still arriving (at most half the slots)",
      "inTransit",
    ],
    [
      "anfrage_http_requests_small_body_in_transit",
      "Requests in work whose small body is still arriving (it did not fit the read-ahead budget; at most a quarter of the slots)",
      "smallInTransit",
    ],
    [
      "anfrage_http_read_ahead_bytes",
      "Bytes of small bodies read before their request took a slot (at most 4 MiB)",
      "readAheadBytes",
    ],
  ] as const) {
    register.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      collect() {
        this.set(stats()[key]);
      },
    });
  }
}

/** GET /metrics on its own port (not reachable through the public http_service). */
export function startMetricsServer(port: number, host: string): Server {
  if (!register.getSingleMetric("process_resident_memory_bytes")) collectDefaultMetrics();
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await register.metrics();
      res.writeHead(200, { "content-type": register.contentType }).end(body);
    } catch {
      res.writeHead(500).end();
    }
  });
  // A busy port must not take the app down: the app runs on, without metrics.
  server.on("error", (error) => console.error(`Metrik-Port ${port} nicht verfügbar:`, error));
  server.listen(port, host);
  return server;
}
