// What the landing page keeps between requests (the parsed configuration in memory, ADR 130) must
// never show stale or someone else's data: a settings change shows on the very next request, the
// CSP nonce is new per response, and one visitor's history never reaches another.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
});
afterAll(async () => {
  saveConfiguration(DEFAULT_CONFIGURATION);
  await server.close();
});

const page = async (cookie?: string) =>
  (await server.fetch("/", { headers: cookie ? { cookie } : {} })).text();

describe("landing page caches", () => {
  it("shows a configuration saved through the API on the next request", async () => {
    expect(await page()).not.toContain("Banner eins");
    for (const text of ["Banner eins", "Banner zwei"]) {
      const res = await server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { infoBanner: { enabled: true, text } },
      });
      expect(res.status).toBe(200);
      expect(await page()).toContain(text);
    }
    await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { infoBanner: { enabled: false, text: "Banner zwei" } },
    });
    expect(await page()).not.toContain("Banner zwei");
  });

  it("shows a configuration another database connection wrote on the next request", async () => {
    // This test's own module instance has its own connection, like a restore or a script would.
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      infoBanner: { enabled: true, text: "Von außen gespeichert" },
    });
    expect(await page()).toContain("Von außen gespeichert");
    saveConfiguration(DEFAULT_CONFIGURATION);
    expect(await page()).not.toContain("Von außen gespeichert");
  });

  it("sends a new nonce with every response, the same in the header and the scripts", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await server.fetch("/");
      const header = res.headers.get("content-security-policy") ?? "";
      const nonce = header.match(/'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeTruthy();
      const html = await res.text();
      const used = [...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((m) => m[1]);
      expect(used.length).toBeGreaterThan(0);
      expect(new Set(used)).toEqual(new Set([nonce]));
      nonces.add(nonce as string);
    }
    expect(nonces.size).toBe(3);
  });

  it("never shows one visitor's history or form state to another", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ name: "Besucherin Anna Eins" })),
    });
    expect(res.status).toBe(201);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^visitor_requests=/);
    expect(await page(cookie)).toContain("Besucherin Anna Eins");
    expect(await page()).not.toContain("Besucherin Anna Eins");
    // A failed no-JS submission's form state stays with its own response.
    const form = new FormData();
    form.set("name", "Formular Bertram");
    form.set("email", "kaputt");
    const failed = await server.fetch("/?index", {
      method: "POST",
      body: form,
      headers: { origin: server.url },
    });
    expect(failed.status).toBe(400);
    expect(await failed.text()).toContain("Formular Bertram");
    const next = await page();
    expect(next).not.toContain("Formular Bertram");
    expect(next).not.toContain("Besucherin Anna Eins");
  });
});
