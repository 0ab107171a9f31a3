// The landing page's render cache (app/server/rendering/render-cache.server.ts, ADR 160) against the real
// request handler: it serves repeated requests from memory, yet a settings change shows on the
// very next request, every response has its own nonce, and nothing one visitor sees (theme,
// consent, affiliate code, attribution, history, form state, toast) reaches another.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { serializeToast } from "~/server/http/flash.server";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

type Stats = { entries: number; bytes: number; hits: number; stores: number };
let server: TestServer;
let token: string;
let stats: () => Stats;
beforeAll(async () => {
  // With analytics configured: only then does the landing page show a cookie bar (ADR 343).
  server = await startTestServer({
    SUBMISSION_RATE_LIMIT: "1000/1h",
    GA_MEASUREMENT_ID: "G-TEST123",
  });
  token = await server.adminToken();
  // The same module instance the server runs (the built entry's testHooks).
  stats = () => server.testHooks.renderCacheStats();
});
beforeEach(() => {
  saveConfiguration(DEFAULT_CONFIGURATION);
});
afterAll(async () => {
  saveConfiguration(DEFAULT_CONFIGURATION);
  await server.close();
});

const get = (url: string, headers: Record<string, string> = {}) => server.fetch(url, { headers });
const html = async (url: string, headers: Record<string, string> = {}) =>
  (await get(url, headers)).text();

/** The page twice: the second answer must come from the cache. */
async function warm(url: string, headers: Record<string, string> = {}) {
  await html(url, headers);
  const before = stats().hits;
  const page = await html(url, headers);
  expect(stats().hits).toBe(before + 1);
  return page;
}

const patch = async (json: unknown) => {
  const res = await server.fetch("/api/configuration", { method: "PATCH", token, json });
  expect(res.status).toBe(200);
};

const cookieOf = (res: Response, name: string) =>
  (res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? "").split(";")[0];

describe("landing render cache", () => {
  it("serves a repeated request from the cache with the same HTML", async () => {
    const first = await html("/?cache=gleich");
    const stored = stats().stores;
    const hits = stats().hits;
    const second = await html("/?cache=gleich");
    expect(stats()).toMatchObject({ stores: stored, hits: hits + 1 });
    const noNonce = (s: string) => s.replace(/nonce="[^"]+"/g, 'nonce=""');
    expect(noNonce(second)).toBe(noNonce(first));
    expect(second).toContain("</html>");
  });

  it("renders a page once for concurrent first requests", async () => {
    const before = stats();
    const pages = await Promise.all(Array.from({ length: 6 }, () => html("/?cache=gleichzeitig")));
    expect(stats().stores).toBe(before.stores + 1);
    for (const page of pages) expect(page).toContain("</html>");
  });

  it("shows a settings change on the very next request (banner, privacy note, upload limit)", async () => {
    expect(await warm("/")).not.toContain("Cache-Banner");
    await patch({ infoBanner: { enabled: true, text: "Cache-Banner eins" } });
    expect(await html("/")).toContain("Cache-Banner eins");
    await patch({ privacyNote: "Cache-Datenschutzhinweis {monate}." });
    expect(await warm("/")).toContain("Cache-Datenschutzhinweis 24.");
    await patch({ retention: { requestMonths: 7 } });
    expect(await html("/")).toContain("Cache-Datenschutzhinweis 7.");
    expect(await warm("/")).toMatch(/je (<!-- -->)?10(<!-- -->)? MB/);
    await patch({ uploadSettings: { maxFileSizeMB: 3 } });
    expect(await html("/")).toMatch(/je (<!-- -->)?3(<!-- -->)? MB/);
    // Written by another connection (a restore, a script): also the next request.
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      infoBanner: { enabled: true, text: "Cache-Banner von außen" },
    });
    const page = await html("/");
    expect(page).toContain("Cache-Banner von außen");
    expect(page).not.toContain("Cache-Banner eins");
  });

  it("puts a fresh nonce, the header's, into every response served from the cache", async () => {
    await warm("/");
    const hits = stats().hits;
    const nonces = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await get("/");
      const nonce = res.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeTruthy();
      const page = await res.text();
      const used = [...page.matchAll(/ nonce="([^"]*)"/g)].map((m) => m[1]);
      expect(used.length).toBeGreaterThan(1);
      expect(new Set(used)).toEqual(new Set([nonce]));
      nonces.add(nonce as string);
    }
    expect(stats().hits).toBe(hits + 4);
    expect(nonces.size).toBe(4);
  });

  it("sends the cached page gzipped (fresh nonce, same HTML) to clients that accept gzip", async () => {
    const noNonce = (s: string) => s.replace(/nonce="[^"]+"/g, 'nonce=""');
    const plain = await get("/?cache=gzip", { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const identity = await plain.text();
    await warm("/?cache=gzip", { "accept-encoding": "gzip" });
    for (const accept of ["gzip", "gzip, deflate, br, zstd", "br;q=1, gzip;q=0.5"]) {
      const hits = stats().hits;
      const res = await get("/?cache=gzip", { "accept-encoding": accept });
      expect(stats().hits).toBe(hits + 1);
      expect(res.headers.get("content-encoding")).toBe("gzip");
      expect(res.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
      const nonce = res.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
      // fetch gunzips the body (and checks its CRC and length).
      const page = await res.text();
      expect(new Set([...page.matchAll(/ nonce="([^"]*)"/g)].map((m) => m[1]))).toEqual(
        new Set([nonce]),
      );
      expect(noNonce(page)).toBe(noNonce(identity));
    }
  });

  it("keeps a visitor's theme, consent and cookie bar to that visitor", async () => {
    const anonymous = await warm("/");
    expect(anonymous).toContain('aria-label="Cookie-Einstellungen"');
    const theme = await server.fetch("/preferences/theme", {
      method: "POST",
      body: new URLSearchParams({ theme: "dark", redirectTo: "/" }),
    });
    const dark = cookieOf(theme, "theme");
    const consent = await server.fetch("/preferences/consent", {
      method: "POST",
      body: new URLSearchParams({ choice: "necessary" }),
    });
    const chosen = cookieOf(consent, "cookie_consent");
    expect(await warm("/", { cookie: dark })).toContain('<html lang="de" class="dark"');
    expect(await warm("/", { cookie: chosen })).not.toContain('aria-label="Cookie-Einstellungen"');
    const next = await html("/");
    expect(next).not.toContain('class="dark"');
    expect(next).toContain('aria-label="Cookie-Einstellungen"');
  });

  it("keeps an affiliate code and the visit's attribution to the visit that brought them", async () => {
    const created = await server.fetch("/api/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "Cache Partner", email: "cache.partner@example.com", discountValue: 15 },
    });
    expect(created.status).toBe(201);
    const { code } = (await created.json()) as { code: string };
    const withCode = await warm(`/?code=${code}`);
    expect(withCode).toContain(`value="${code}"`);
    const referred = await warm("/?utm_source=cache-newsletter", {
      referer: "https://www.example.org/cache-artikel",
    });
    expect(referred).toContain('value="cache-newsletter"');
    expect(referred).toContain("www.example.org");
    // Same URL, another referrer: the other visit's attribution is not reused.
    const other = await html("/?utm_source=cache-newsletter", {
      referer: "https://andere.example.net/",
    });
    expect(other).toContain("andere.example.net");
    expect(other).not.toContain("www.example.org");
    const plain = await html("/");
    for (const secret of [code, "cache-newsletter", "www.example.org"]) {
      expect(plain).not.toContain(secret);
    }
  });

  it("keeps the Set-Cookie of the loader on a response served from the cache", async () => {
    const consent = await server.fetch("/preferences/consent", {
      method: "POST",
      body: new URLSearchParams({ choice: "all" }),
    });
    const all = cookieOf(consent, "cookie_consent");
    await warm("/?utm_source=cache-erstkontakt", { cookie: all });
    const hits = stats().hits;
    const res = await get("/?utm_source=cache-erstkontakt", { cookie: all });
    expect(stats().hits).toBe(hits + 1);
    expect(cookieOf(res, "first_touch")).toMatch(/^first_touch=./);
  });

  it("never stores or serves a failed no-JS submission, and keeps history to its visitor", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ name: "Cache Carla Verlauf" })),
    });
    expect(res.status).toBe(201);
    const visitor = cookieOf(res, "visitor_requests");
    expect(await html("/", { cookie: visitor })).toContain("Cache Carla Verlauf");
    await warm("/");
    const before = stats();
    const form = new FormData();
    form.set("name", "Cache Formular Dieter");
    form.set("email", "kaputt");
    for (let i = 0; i < 2; i++) {
      const failed = await server.fetch("/", {
        method: "POST",
        body: form,
        headers: { origin: server.url, cookie: visitor },
      });
      expect(failed.status).toBe(400);
      expect(await failed.text()).toContain("Cache Formular Dieter");
    }
    expect(stats()).toMatchObject({ stores: before.stores, hits: before.hits });
    const next = await html("/");
    expect(stats().hits).toBe(before.hits + 1);
    expect(next).not.toContain("Cache Formular Dieter");
    expect(next).not.toContain("Cache Carla Verlauf");
  });

  it("shows a flash toast to its own visitor only", async () => {
    await warm("/");
    const flash = (
      await serializeToast({ type: "success", message: "Cache-Toast für Emil" })
    ).split(";")[0];
    const toasted = await get("/", { cookie: flash });
    expect(await toasted.text()).toContain("Cache-Toast für Emil");
    // The loader's header that clears the flash cookie comes with it.
    expect(cookieOf(toasted, "__flash")).toBe("__flash=");
    expect(await html("/")).not.toContain("Cache-Toast für Emil");
  });

  it("never keeps a page with the visitor's own requests: erased data must not stay in memory", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ name: "Cache Hanna Eigen" })),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const visitor = cookieOf(res, "visitor_requests");
    const before = stats();
    for (const url of ["/", `/?gesendet=${id}`, "/", `/?gesendet=${id}`]) {
      expect(await html(url, { cookie: visitor })).toContain("Cache Hanna Eigen");
    }
    expect(stats()).toMatchObject({ stores: before.stores, hits: before.hits });
  });

  it("prints the footer year from the loader (Berlin time), so the browser's clock cannot mismatch it", async () => {
    const year = new Intl.DateTimeFormat("de-DE", { timeZone: "Europe/Berlin", year: "numeric" });
    expect(await warm("/?cache=jahr")).toContain(`© ${year.format(new Date())} Anfrage-Portal`);
  });

  it("renders every section inline, cached or not: no hidden chunk that only a script reveals", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ name: "Cache Ida Inline" })),
    });
    const visitor = cookieOf(res, "visitor_requests");
    for (const page of [await warm("/?cache=inline"), await html("/", { cookie: visitor })]) {
      expect(page).not.toMatch(/<div hidden id="S:|\$RC|<template id="B:/);
      expect(page).toContain('id="contact-form"');
      expect(page).toContain("Rechtliches");
    }
  });
});
