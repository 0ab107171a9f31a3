import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBenchRequests } from "../../scripts/bench-admin-seed.ts";
import { startTestServer, type TestServer } from "./server";
import { spyOnConnections } from "./sqlite-spy";

// server/response-writer.ts and the CSV export's stream over real HTTP against the build (found by
// the attack review of ADR 303).
// The server's SQLite connection is found by tests/integration/sqlite-spy.ts, so its temporary
// tables can be listed and the CSV export's keyset reads counted.
const ROWS = 40_000;
let server: TestServer;
let token: string;
/** Keyset batches the list export has read (sort=oldest). */
let exportReads = 0;
let spy: ReturnType<typeof spyOnConnections>;
const tempTables = () => spy.tempTables();

beforeAll(async () => {
  spy = spyOnConnections((source, statement) => {
    if (/from "requests"/i.test(source) && /"created_at" >= \?/i.test(source)) {
      const all = statement.all.bind(statement) as (...args: unknown[]) => unknown[];
      (statement as unknown as { all: typeof all }).all = (...args: unknown[]) => {
        exportReads++;
        return all(...args);
      };
    }
  });
  server = await startTestServer();
  seedBenchRequests(process.env.DATABASE_PATH as string, ROWS);
  token = await server.adminToken();
}, 180_000);

afterAll(async () => {
  spy.restore();
  await server.close();
});

describe("HEAD of a search export", () => {
  // React Router answers HEAD with `new Response(null)` and drops the route's body without
  // cancelling it: a body that read ahead (Readable.toWeb did) had created the hit table and stayed
  // suspended at its first `yield` for ever. The export's stream starts on its first read.
  it("leaves no temporary hit table behind", async () => {
    expect(tempTables()).toEqual([]);
    const res = await server.fetch("/api/admin/requests/export.csv?q=berlin&sort=oldest", {
      method: "HEAD",
      token,
    });
    expect(res.status).toBe(200);
    await expect
      .poll(
        async () => {
          await (await server.fetch("/healthz")).text();
          return tempTables();
        },
        { timeout: 5_000, interval: 100 },
      )
      .toEqual([]);
  }, 60_000);
});

describe("a gzip download read by a slow client", () => {
  // Compression's overridden res.on puts `drain` listeners on the Gzip stream, while a `once`
  // wrapper removes itself from `res` only: a writer that waited with events.once left one
  // listener on the Gzip stream per wait.
  it("leaks no drain listeners (no MaxListenersExceededWarning)", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const before = exportReads;
      let response!: IncomingMessage;
      let req!: ReturnType<typeof httpRequest>;
      await new Promise<void>((resolve, reject) => {
        req = httpRequest(
          new URL("/api/admin/requests/export.csv?sort=oldest", server.url),
          { headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" } },
          (res) => {
            response = res;
            res.once("data", () => {
              res.pause();
              resolve();
            });
          },
        );
        req.once("error", reject);
        req.end();
      });
      expect(response.headers["content-encoding"]).toBe("gzip");
      // The client stalls until the server has stopped producing (backpressure or the end).
      let last = -1;
      await expect
        .poll(
          async () => {
            await (await server.fetch("/healthz")).text();
            const stable = exportReads === last;
            last = exportReads;
            return stable;
          },
          { timeout: 30_000, interval: 300 },
        )
        .toBe(true);
      expect(exportReads - before).toBeGreaterThan(0);
      // Then reads to the end.
      await new Promise<void>((resolve, reject) => {
        response.on("end", resolve);
        response.on("error", reject);
        response.resume();
      });
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on nextTick
      expect(warnings.filter((w) => w.includes("MaxListenersExceededWarning"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  }, 120_000);
});
