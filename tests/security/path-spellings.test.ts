import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "../integration/auth-helpers";
import { multipart, validFields } from "../integration/landing-fixtures";
import { startTestServer, type TestServer } from "../integration/server";

// One path normalisation for every decision (ADR 306): what is decided by a path follows the route
// React Router runs, whatever spelling of its path reached it — `.data` (single fetch), `_routes`,
// a trailing slash, another case, percent-encodings. An API token's scope: the CSV export is
// session-only; its `.data` spelling once matched `api/admin/requests/:id` (requests:read) in a
// scope table of patterns while React Router ran the export. (Every route in every spelling: the
// route matrix.)

let server: TestServer;
let session: string;
let reader: string;

const exportRows = () => {
  const db = testDb();
  try {
    return (
      db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'export-csv'").get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  server = await startTestServer();
  session = await server.adminToken();
  const created = await server.fetch("/api/admin/api-tokens", {
    method: "POST",
    token: session,
    json: { name: "CRM", scopes: ["requests:read"], password: "admin-passwort" },
  });
  expect(created.status).toBe(201);
  reader = (await created.json()).token;
});

afterAll(async () => {
  await server.close();
});

const EXPORT_SPELLINGS = [
  "/api/admin/requests/export.csv",
  "/api/admin/requests/export.csv.data",
  "/api/admin/requests/export.csv.data?_routes=routes/api/admin/requests.export-csv",
  "/api/admin/requests/export.csv/",
  "/API/ADMIN/REQUESTS/EXPORT.CSV",
  "/api/admin/requests/export%2Ecsv",
  "/%61pi/admin/requests/%65xport.csv",
  "/api/admin/requests/export.csv?_routes=routes/api/admin/requests",
];

describe("API token scopes follow the route that runs", () => {
  it("a requests:read token reads the request list (the control: the token works)", async () => {
    for (const path of ["/api/admin/requests", "/api/admin/requests/archived"]) {
      const res = await server.fetch(path, { token: reader });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/json/);
    }
    const data = await server.fetch("/api/admin/requests.data", { token: reader });
    expect(data.status).toBe(200);
  });

  it("meets the route the router ranks first: a fixed segment before a parameter", async () => {
    const status = async (path: string) => (await server.fetch(path, { token: reader })).status;
    // `archived` is its own route (requests:read), not the request with id "archived".
    expect(await status("/api/admin/requests/archived")).toBe(200);
    // One request (requests:read): past the token check, the request does not exist.
    expect(await status("/api/admin/requests/12")).toBe(404);
    // The export is its own route, kept for sessions.
    expect(await status("/api/admin/requests/export.csv")).toBe(401);
    // An attachment (requests:read): past the token check, no such file.
    expect(await status("/api/uploads/a.pdf")).toBe(404);
    // No route: the JSON 404 for anyone.
    const unknown = await server.fetch("/api/nothing/here", { token: reader });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Nicht gefunden" });
    // A page never takes a token.
    expect(await status("/admin/requests")).toBe(401);
  });

  it.each(EXPORT_SPELLINGS)(
    "a requests:read token never downloads the CSV export: %s",
    async (path) => {
      const before = exportRows();
      const res = await server.fetch(path, { token: reader });
      const body = await res.text();
      expect(res.status, `${path}: ${body.slice(0, 120)}`).toBe(401);
      expect(body).not.toContain("Nr.;Eingegangen");
      expect(exportRows()).toBe(before);
    },
  );
});

describe("the stored files are sent as stored, in every spelling", () => {
  it("never compresses an attachment, however its path is spelled", async () => {
    const csv = Buffer.from(`Nr;Name\n${"1;Anna Beispiel\n".repeat(400)}`);
    const form = multipart(validFields(), [{ name: "liste.csv", bytes: csv, type: "text/csv" }]);
    expect((await server.fetch("/api/requests", { method: "POST", body: form })).status).toBe(201);
    const db = testDb();
    const { filename } = db
      .prepare("SELECT filename FROM attachments ORDER BY id DESC LIMIT 1")
      .get() as { filename: string };
    db.close();
    // The control: a compressible answer of the same size is compressed.
    const list = await server.fetch("/api/admin/requests", {
      token: session,
      headers: { "accept-encoding": "gzip" },
    });
    expect(list.headers.get("content-encoding")).toBe("gzip");
    for (const path of [
      `/api/uploads/${filename}`,
      `/API/uploads/${filename}`,
      `/%61pi/uploads/${filename}`,
      `/api/Uploads/${filename}?download=1`,
    ]) {
      const res = await server.fetch(path, {
        token: session,
        headers: { "accept-encoding": "gzip" },
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-encoding"), path).toBeNull();
      expect(Buffer.from(await res.arrayBuffer()).equals(csv), path).toBe(true);
    }
  });
});
