// Pages with the visitor's own data are private (ADR 324): a page that shows the requests of the
// history cookie, a sent request or the booking of one's own request answers
// `Cache-Control: private, no-store` (HTML and its `.data` twin); a first visit stays public and
// is still served from the render cache and the landing fast path (ADRs 160, 300). The check of
// an affiliate code is limited per client (ADR 322: it would enumerate the codes), on the API and on the
// landing page's `?code=` alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let visitor: { id: number; cookie: string };
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "fly" });
  token = await server.adminToken();
  const res = await server.fetch("/api/requests", {
    method: "POST",
    headers: { "fly-client-ip": "198.51.100.99" },
    body: multipart(validFields()),
  });
  expect(res.status).toBe(201);
  visitor = {
    id: ((await res.json()) as { id: number }).id,
    cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] as string,
  };
});
afterAll(async () => {
  await server.close();
  delete process.env.TRUST_PROXY;
});

const cacheControl = async (path: string, cookie?: string) => {
  const res = await server.fetch(path, { headers: cookie ? { cookie } : {} });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers.get("cache-control");
};

describe("Cache-Control of the visitor's pages", () => {
  it("the landing page with the visitor's requests, a sent request or the booking page is private", async () => {
    const { id, cookie } = visitor;
    expect(await cacheControl("/", cookie)).toBe("private, no-store");
    expect(await cacheControl(`/?gesendet=${id}`, cookie)).toBe("private, no-store");
    expect(await cacheControl("/_.data", cookie)).toBe("private, no-store");
    expect(await cacheControl(`/termin?anfrage=${id}`, cookie)).toBe("private, no-store");
    expect(await cacheControl(`/termin.data?anfrage=${id}`, cookie)).toBe("private, no-store");
  });

  it("a first visit stays public and comes from the render cache and the fast path", async () => {
    const fastBefore = server.testHooks.landingFastPathStats().fast;
    for (let i = 0; i < 3; i++) expect(await cacheControl("/")).toBeNull();
    expect(server.testHooks.landingFastPathStats().fast).toBeGreaterThan(fastBefore);
    // A cookie without requests of its own (theme, consent) is a page like any other.
    const hits = server.testHooks.renderCacheStats().hits;
    expect(await cacheControl("/", "theme=dark")).toBeNull();
    expect(server.testHooks.renderCacheStats().hits).toBeGreaterThan(hits);
  });
});

describe("affiliate-code validation is limited per client", () => {
  it("30 checks per 10 minutes, sent at once: the rest get 429; another client is not affected", async () => {
    const created = await server.fetch("/api/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "Partner", email: "partner@example.com", discountValue: 10 },
    });
    expect(created.status).toBe(201);
    const { code } = (await created.json()) as { code: string };
    const check = (code: string, ip: string) =>
      server.fetch(`/api/affiliate-codes/validate/${code}`, { headers: { "fly-client-ip": ip } });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => check(i === 0 ? code : `RATE${i}`, "203.0.113.7")),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/^Zu viele Versuche\. Bitte warte \d+ Minuten?/);
    // The landing page's ?code= counts on the same limit: no affiliate banner past it.
    const page = await server.fetch(`/?code=${code}`, {
      headers: { "fly-client-ip": "203.0.113.7" },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('data-testid="affiliate-badge"');
    // Another client checks as before.
    const other = await check(code, "198.51.100.7");
    expect(await other.json()).toEqual({ valid: true, discountValue: 10 });
    const banner = await server.fetch(`/?code=${code}`, {
      headers: { "fly-client-ip": "198.51.100.7" },
    });
    expect(await banner.text()).toContain('data-testid="affiliate-badge"');
  });
});
