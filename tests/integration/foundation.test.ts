import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({
    PRIVACY_URL: "https://agentur.example/datenschutz",
    IMPRINT_URL: "https://agentur.example/impressum",
  });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
});

describe("foundation", () => {
  it("serves / in German with a CSP nonce that matches the inline scripts", async () => {
    const res = await server.fetch("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="de"');
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptNonces = [...html.matchAll(/<script[^>]*nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    for (const n of scriptNonces) expect(n).toBe(nonce);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("answers /healthz after a database query", async () => {
    const res = await server.fetch("/healthz");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("OK");
  });

  it("serves /admin/login", async () => {
    expect((await server.fetch("/admin/login")).status).toBe(200);
  });

  it("redirects unknown paths to /", async () => {
    const res = await server.fetch("/gibt-es-nicht/wirklich");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  it("answers unknown /api paths with JSON 404", async () => {
    const res = await server.fetch("/api/gibt-es-nicht");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Nicht gefunden" });
  });

  it("refuses cross-origin mutations", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });

  it("gives visitors only the public configuration", async () => {
    const res = await server.fetch("/api/configuration");
    const body = await res.json();
    expect(body.appointmentEventType).toBe("demo");
    expect(body).not.toHaveProperty("systemPrompt");
    expect(body).not.toHaveProperty("emailNotifications");
  });
});

describe("guessed addresses", () => {
  it("/datenschutz and /impressum lead to the brand's legal pages, not the landing page", async () => {
    for (const [path, target] of [
      ["/datenschutz", "https://agentur.example/datenschutz"],
      ["/impressum/", "https://agentur.example/impressum"],
    ]) {
      const res = await server.fetch(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toBe(target);
    }
    const patched = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { branding: { privacyUrl: "https://sued.example/dsgvo" } },
    });
    expect(patched.status).toBe(200);
    const res = await server.fetch("/datenschutz");
    expect(res.headers.get("location")).toBe("https://sued.example/dsgvo");
  });

  it("/admin/requests/<id> opens that request in the list; anything else still leads to /", async () => {
    const res = await server.fetch("/admin/requests/3");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/requests?requestId=3");
    for (const path of ["/admin/requests/abc", "/gibt-es-nicht", "/datenschutz/mehr"]) {
      const other = await server.fetch(path);
      expect(other.status, path).toBe(302);
      expect(other.headers.get("location"), path).toBe("/");
    }
  });
});
