import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBenchRequests } from "../../scripts/bench-admin-seed.ts";
import { startTestServer, type TestServer } from "./server";
import { spyOnConnections } from "./sqlite-spy";

// ADR 287: the CSV export reads keyset batches and gives the event loop back between them, so a
// long export never holds up the other requests. 20,000 requests are 20 batches; a request sent
// once the first bytes of the export have arrived is answered while the export still runs.
// The server's own SQLite connection is found by ./sqlite-spy.ts, so the temporary hit tables of
// a search export — which live on that connection only — can be listed.
const ROWS = 20_000;
let server: TestServer;
let token: string;
let spy: ReturnType<typeof spyOnConnections>;
const tempTables = () => spy.tempTables();

beforeAll(async () => {
  spy = spyOnConnections();
  server = await startTestServer();
  seedBenchRequests(process.env.DATABASE_PATH as string, ROWS);
  token = await server.adminToken();
}, 120_000);

afterAll(async () => {
  spy.restore();
  await server.close();
});

it("answers another request while a long export streams, and exports every row", async () => {
  const exportRes = await server.fetch("/api/admin/requests/export.csv?sort=oldest", { token });
  expect(exportRes.status).toBe(200);
  const reader = (exportRes.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);

  let exportEnded = false;
  let bytes = first.value?.byteLength ?? 0;
  const text: string[] = [new TextDecoder().decode(first.value)];
  const decoder = new TextDecoder();
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text.push(decoder.decode(value, { stream: true }));
    }
    exportEnded = true;
  })();

  // Sent after the export began; answered before it ends.
  const other = await server.fetch("/api/admin/stats", { token });
  expect(other.status).toBe(200);
  const otherAnsweredDuringExport = !exportEnded;
  await other.json();
  await rest;
  expect(otherAnsweredDuringExport).toBe(true);

  const lines = text.join("").split("\r\n").filter(Boolean);
  // The header plus every request of the open tab (every 10th seeded one is archived).
  expect(lines).toHaveLength(1 + ROWS - ROWS / 10);
  expect(bytes).toBeGreaterThan(ROWS * 100);
}, 120_000);

/** GET over a raw socket; resolves once the first body bytes arrived, with a way to cut the line. */
function startDownload(path: string) {
  const url = new URL(path, server.url);
  return new Promise<{ status: number; abort: () => void; received: () => number }>(
    (resolve, reject) => {
      let bytes = 0;
      const req = httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once("data", (chunk: Buffer) => {
          bytes += chunk.length;
          // Stop reading: the server sees backpressure, then the closed socket.
          res.pause();
          resolve({
            status: res.statusCode ?? 0,
            abort: () => req.destroy(),
            received: () => bytes,
          });
        });
      });
      req.on("error", () => {});
      req.once("error", reject);
      req.end();
    },
  );
}

/** The server's temporary hit tables are gone (another request runs its event loop in between). */
const expectHitTablesDropped = () =>
  expect
    .poll(
      async () => {
        await (await server.fetch("/healthz")).text();
        return tempTables();
      },
      { timeout: 10_000, interval: 100 },
    )
    .toEqual([]);

describe("CSV export of a search, cut off by the client over HTTP", () => {
  it("drops the export's temporary hit table once the client disconnects", async () => {
    expect(tempTables()).toEqual([]);
    const download = await startDownload("/api/admin/requests/export.csv?q=berlin&sort=oldest");
    expect(download.status).toBe(200);
    expect(tempTables()).toHaveLength(1);
    download.abort();
    await expectHitTablesDropped();
  }, 60_000);

  it("ends every one of several parallel search exports that are cut off", async () => {
    const downloads = await Promise.all(
      ["q=berlin", "q=berlin&sort=id-asc", "q=software&status=New", "q=berlin&tab=archived"].map(
        (search) => startDownload(`/api/admin/requests/export.csv?${search}`),
      ),
    );
    for (const d of downloads) expect(d.status).toBe(200);
    for (const d of downloads) d.abort();
    await expectHitTablesDropped();
  }, 60_000);
});
