import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBenchRequests } from "../../scripts/bench-admin-seed.ts";
import { startTestServer, type TestServer } from "./server";
import { spyOnConnections } from "./sqlite-spy";

// Attack review of issue 31 (helper attack31): the streamed CSV export over real HTTP.
// The server's own SQLite connection is found by tests/integration/sqlite-spy.ts, so the temporary
// hit tables of a search export — which live on that connection only — can be listed.

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

describe("the production server process with a bad configuration (server/index.ts)", () => {
  // The migration child now starts before the build's configuration check; with a DATABASE_PATH
  // whose folder cannot be created (a regular file stands there) the child dies with Node's
  // uncaught-exception dump (stack, errno object, "Node.js v24"), printed before the launcher's
  // own line. Before (9b39c28) the configuration error was the only output.
  it("stops with the one line of the configuration error, no stack trace of the migration child", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "a31-"));
    writeFileSync(path.join(dir, "file"), "x");
    const child = spawn(process.execPath, ["server/index.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: "0",
        DATABASE_PATH: path.join(dir, "file", "data.sqlite"),
      },
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).not.toBe(0);
    const lines = output
      .trim()
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("npm warn"));
    expect(output).not.toMatch(/^\s+at /m);
    expect(lines).toHaveLength(1);
  }, 30_000);
});
