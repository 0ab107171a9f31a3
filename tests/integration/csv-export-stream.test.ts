import { afterAll, beforeAll, expect, it } from "vitest";
import { seedBenchRequests } from "../../scripts/bench-admin-seed.ts";
import { startTestServer, type TestServer } from "./server";

// Issue 31: the CSV export reads keyset batches and gives the event loop back between them, so a
// long export never holds up the other requests. 20,000 requests are 20 batches; a request sent
// once the first bytes of the export have arrived is answered while the export still runs.
const ROWS = 20_000;
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  seedBenchRequests(process.env.DATABASE_PATH as string, ROWS);
  token = await server.adminToken();
}, 120_000);

afterAll(() => server.close());

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
