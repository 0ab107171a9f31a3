// The landing fast path (ADR 300, server/landing-fast-path.ts): a first visit's `GET /` answered
// from the kept page before React Router must be the very answer React Router gives — same status,
// same headers in the same order, same bytes except the fresh nonce (identity and gzip), counted in
// the metrics like any request — and must step aside on a configuration change (this process's
// save or another process's write) and for anything the loaders read (query, cookie, referer).
import { execFileSync } from "node:child_process";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { register } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
beforeEach(() => {
  saveConfiguration(DEFAULT_CONFIGURATION);
});
afterAll(async () => {
  saveConfiguration(DEFAULT_CONFIGURATION);
  await server.close();
});

type Raw = { status: number; headers: [string, string][]; body: Buffer };

/** One request over a raw socket: the header lines exactly as sent (order, case), the raw body. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const fast = () => server.testHooks.landingFastPathStats().fast;
const nonceOf = (res: Raw) =>
  /'nonce-([^']+)'/.exec(
    res.headers.find(([n]) => n === "Content-Security-Policy")?.[1] ?? "",
  )?.[1];
/** The headers that differ per response by design: the date, the request id, the CSP's nonce. */
const comparable = (res: Raw) =>
  res.headers
    .filter(([name]) => name !== "Date" && name !== "X-Request-Id")
    .map(([name, value]) => [name, value.replace(/'nonce-[^']+'/, "'nonce-N'")]);
const html = (res: Raw) =>
  (res.headers.some(([n, v]) => /content-encoding/i.test(n) && v === "gzip")
    ? gunzipSync(res.body)
    : res.body
  ).toString("utf8");

/** A first visit answered by the fast path (it is warmed by one such visit through React Router). */
async function fastVisit(headers: Record<string, string> = {}) {
  await raw("/", headers);
  const before = fast();
  const res = await raw("/", headers);
  expect(fast()).toBe(before + 1);
  return res;
}

const landingRequests = async () => {
  const metric = (await register.getSingleMetric("anfrage_http_requests_total")?.get()) ?? {
    values: [],
  };
  return (
    metric.values.find(
      (v) =>
        v.labels.route === "routes/landing/index" &&
        v.labels.method === "GET" &&
        v.labels.status === "200",
    )?.value ?? 0
  );
};

describe("landing fast path", () => {
  for (const encoding of ["identity", "gzip, deflate, br"]) {
    it(`answers a first visit exactly as React Router does (Accept-Encoding: ${encoding})`, async () => {
      const headers = { "Accept-Encoding": encoding };
      const quick = await fastVisit(headers);
      // The same page through React Router: a cookie no loader reads keeps the loader data (and
      // so the kept page) the same but takes the slow path.
      const before = fast();
      const slow = await raw("/", { ...headers, Cookie: "unbekannt=1" });
      expect(fast()).toBe(before);
      expect(quick.status).toBe(200);
      expect(slow.status).toBe(200);
      expect(comparable(quick)).toEqual(comparable(slow));
      const nonce = nonceOf(quick) as string;
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(nonceOf(slow)).not.toBe(nonce);
      const page = html(quick);
      expect(page).toContain(`nonce="${nonce}"`);
      expect(page).toContain("</html>");
      expect(page.replaceAll(nonce, "N")).toBe(html(slow).replaceAll(nonceOf(slow) as string, "N"));
      // Not one of the page's scripts left without this response's nonce.
      expect(page.match(/<script/g)?.length).toBe(page.match(/<script nonce="/g)?.length);
    });
  }

  it("counts a fast answer in the metrics like any request of the landing page", async () => {
    await fastVisit();
    const before = await landingRequests();
    await fastVisit();
    // fastVisit asks twice: the warming request (now fast too) and the checked one.
    expect(await landingRequests()).toBe(before + 2);
  });

  it("shows a configuration save on the very next request, then answers fast again", async () => {
    expect(html(await fastVisit())).not.toContain("Schneller Banner");
    const res = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { infoBanner: { enabled: true, text: "Schneller Banner" } },
    });
    expect(res.status).toBe(200);
    const before = fast();
    expect(html(await raw("/"))).toContain("Schneller Banner");
    expect(fast()).toBe(before);
    expect(html(await fastVisit())).toContain("Schneller Banner");
  });

  it("shows a write of another process on the very next request (PRAGMA data_version)", async () => {
    expect(html(await fastVisit())).not.toContain("Banner aus einem Skript");
    const config = {
      ...DEFAULT_CONFIGURATION,
      infoBanner: { enabled: true, text: "Banner aus einem Skript" },
    };
    execFileSync(process.execPath, [
      "-e",
      `const db = require("better-sqlite3")(process.argv[1]);
       db.prepare("UPDATE configuration SET data = ? WHERE id = 1").run(process.argv[2]);
       db.close();`,
      process.env.DATABASE_PATH as string,
      JSON.stringify(config),
    ]);
    const before = fast();
    expect(html(await raw("/"))).toContain("Banner aus einem Skript");
    expect(fast()).toBe(before);
  });

  it("leaves every request the loaders read something of to React Router", async () => {
    await fastVisit();
    const before = fast();
    const cases: [string, Record<string, string>, string][] = [
      ["/?utm_source=newsletter", {}, 'value="newsletter"'],
      ["/?ref=partner", {}, ""],
      ["/?cookies=1", {}, ""],
      [
        "/",
        { Referer: "https://suche.example/ergebnisse?q=software" },
        'value="https://suche.example/ergebnisse"',
      ],
      ["/", { Cookie: "theme=dark" }, ""],
      ["/", { Cookie: "cookie_consent=" }, ""],
    ];
    for (const [path, headers, expected] of cases) {
      const res = await raw(path, headers);
      expect(res.status).toBe(200);
      if (expected) expect(html(res)).toContain(expected);
    }
    expect((await raw("/", {}, "HEAD")).status).toBe(200);
    expect(fast()).toBe(before);
  });
});
