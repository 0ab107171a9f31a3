import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../integration/server";

let server: TestServer;
let cookie: string;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
});

const createCode = (headers: Record<string, string>, auth: "cookie" | "bearer" = "cookie") =>
  server.fetch("/api/admin/affiliate-codes", {
    method: "POST",
    headers: auth === "cookie" ? { cookie, ...headers } : headers,
    token: auth === "bearer" ? token : undefined,
    json: { code: `C${Math.random().toString(36).slice(2, 8).toUpperCase()}`, description: "x" },
  });

describe("Origin check of cookie-authenticated writes (ADR 080)", () => {
  it("has a working session cookie", () => {
    expect(cookie).toMatch(/^__session=/);
  });

  it("refuses Origin: null, a foreign Origin and a forged X-Forwarded-Host with 403", async () => {
    const cases: Record<string, string>[] = [
      { origin: "null" },
      { origin: "https://evil.example" },
      { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of cases) {
      const res = await createCode(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((await res.json()).error).toBe("Anfrage von fremder Herkunft abgelehnt.");
    }
  });

  it("compares scheme, host and port: another scheme or port of the own host is foreign (ADR 262)", async () => {
    const own = new URL(server.url);
    const cases = [
      `https://${own.host}`,
      `http://${own.hostname}:${Number(own.port) + 1}`,
      `http://${own.hostname}`,
    ];
    for (const origin of cases) {
      const res = await createCode({ origin });
      expect(res.status, origin).toBe(403);
    }
  });

  it("accepts the own origin and Bearer calls without Origin", async () => {
    const own = await createCode({ origin: server.url });
    // Past the guard: the route answers (a validation 400 is fine), never the guard's 403.
    expect(own.status).not.toBe(403);
    expect(own.status).toBeLessThan(500);
    const bearer = await createCode({ origin: "null" }, "bearer");
    expect(bearer.status).not.toBe(403);
    expect(bearer.status).toBeLessThan(500);
  });
});
