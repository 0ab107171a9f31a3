// /metrics of the real server process on its own port (ADR 094).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { multipart, validFields } from "./landing-fixtures";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The value of one sample line (exact name and labels) in Prometheus text format. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
}

describe("Prometheus metrics", () => {
  it("serves request, lead, outbox and disk metrics by route id on the internal port only", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "metrics-"));
    const port = await freePort();
    const metricsPort = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ["server/index.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DATABASE_PATH: path.join(dir, "data.sqlite"),
        UPLOADS_DIR: path.join(dir, "uploads"),
      },
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      // Up to 30 s: on a loaded machine the boot alone can take 10 s.
      for (let i = 0; i < 300; i++) {
        try {
          if ((await (await fetch(`${url}/healthz`)).text()) === "OK") break;
        } catch {}
        await new Promise((r) => setTimeout(r, 100));
      }
      const landing = await fetch(`${url}/`);
      expect(landing.status).toBe(200);
      await landing.text(); // the SSR stream ends (and is counted) once it has been read
      const lead = await fetch(`${url}/api/requests`, {
        method: "POST",
        body: multipart(validFields()),
      });
      expect(lead.status).toBe(201);
      expect((await fetch(`${url}/api/uploads/geheim-dateiname.pdf`)).status).toBe(401);

      const publicMetrics = await fetch(`${url}/metrics`, { redirect: "manual" });
      expect(publicMetrics.status).not.toBe(200);
      expect(await publicMetrics.text()).not.toContain("anfrage_http_requests_total");

      // A request is counted when its response has finished, just after the client got it.
      const landingSeries =
        'anfrage_http_requests_total{method="GET",route="routes/landing/index",status="200"}';
      await expect
        .poll(async () =>
          sample(
            await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
            landingSeries,
          ),
        )
        .toBe(1);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(
        sample(
          text,
          'anfrage_http_requests_total{method="GET",route="routes/landing/index",status="200"}',
        ),
      ).toBe(1);
      expect(
        sample(
          text,
          'anfrage_http_requests_total{method="POST",route="routes/api/requests",status="201"}',
        ),
      ).toBe(1);
      expect(text).toContain('route="routes/api/uploads.$filename"');
      expect(text).not.toContain("geheim-dateiname");
      expect(
        sample(
          text,
          'anfrage_http_request_duration_seconds_count{method="GET",route="routes/landing/index"}',
        ),
      ).toBe(1);
      expect(sample(text, "anfrage_requests_stored")).toBe(1);
      expect(sample(text, "anfrage_requests_created_last_hour")).toBe(1);
      expect(sample(text, 'anfrage_outbox_mails{status="pending"}')).toBeTypeOf("number");
      expect(sample(text, 'anfrage_outbox_mails{status="failed"}')).toBe(0);
      expect(sample(text, "anfrage_ai_summary_failures")).toBe(0);
      // The lead above came without a proof of work: held in the spam quarantine (ADR 250).
      expect(sample(text, "anfrage_requests_quarantined")).toBe(1);
      expect(sample(text, "anfrage_disk_free_bytes")).toBeGreaterThan(0);
      expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
      // The request bound (ADR 195): nothing in work or waiting once the requests above are done.
      expect(sample(text, "anfrage_http_requests_in_work")).toBe(0);
      expect(sample(text, "anfrage_http_requests_waiting")).toBe(0);
      expect(text).not.toContain("anfrage_replication_lag_seconds");
    } finally {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
