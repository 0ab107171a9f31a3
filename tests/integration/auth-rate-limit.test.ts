import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT: "3/15m" });
});
afterAll(async () => {
  await server.close();
  delete process.env.LOGIN_RATE_LIMIT;
});

const login = (username: string, password: string) =>
  server.fetch("/api/admin/auth/login", { method: "POST", json: { username, password } });

describe("login rate limit (LOGIN_RATE_LIMIT=3/15m)", () => {
  it("counts only failures: successful logins never use up the budget", async () => {
    for (let i = 0; i < 5; i++) expect((await login("admin", "admin-passwort")).status).toBe(200);
  });

  it("answers 429 with a German message after 3 failures, even for the right password", async () => {
    for (let i = 0; i < 3; i++) expect((await login("admin", `falsch-${i}`)).status).toBe(401);
    const blocked = await login("admin", "admin-passwort");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await blocked.json();
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/Zu viele Versuche/);
    // The HTML form is limited by the same counters.
    const page = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "admin", password: "admin-passwort" }).toString(),
    });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("Zu viele Versuche");
  });

  it("forgot-password is limited per client IP too", async () => {
    let last = 200;
    for (let i = 0; i < 4; i++) {
      const res = await server.fetch("/api/admin/auth/forgot-password", {
        method: "POST",
        json: { email: `x${i}@example.com` },
      });
      last = res.status;
    }
    expect(last).toBe(429);
  });
});
