import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let expiredToken: string;
beforeAll(async () => {
  server = await startTestServer();
  expiredToken = await apiLogin(server, "admin", "admin-passwort");
  const db = testDb();
  // Expire every session created so far (the one above).
  db.prepare("UPDATE sessions SET expires_at = ?").run(Date.now() - 1000);
  db.close();
});
afterAll(async () => {
  await server.close();
});

/** Every admin-only call of the accounts issue, plus spot checks of other admin-only routes. */
const ADMIN_CALLS: [string, string][] = [
  ["GET", "/api/admin/auth/verify"],
  ["POST", "/api/admin/auth/change-password"],
  ["POST", "/api/admin/invite"],
  ["GET", "/api/admin/users"],
  ["POST", "/api/admin/users/1/toggle-status"],
  ["DELETE", "/api/admin/users/1"],
  ["GET", "/api/admin/invitations"],
  ["DELETE", "/api/admin/invitations/1"],
  ["POST", "/api/admin/invitations/1/resend"],
  ["POST", "/api/admin/invitations/1/activate"],
  // Spot checks of other issues' admin-only calls (the same getAdmin behind them).
  ["PATCH", "/api/configuration"],
  ["GET", "/api/admin/requests"],
  ["GET", "/api/admin/requests/archived"],
  ["PUT", "/api/admin/requests/1"],
  ["PATCH", "/api/admin/requests/1/archive"],
  ["POST", "/api/admin/requests/1/assign"],
  ["POST", "/api/admin/requests/1/cursor-prompt"],
  ["GET", "/api/admin/stats"],
  ["GET", "/api/requests"],
  ["PATCH", "/api/requests/1"],
  ["DELETE", "/api/requests/1"],
  ["POST", "/api/requests/1/automated-preparation"],
  ["GET", "/api/uploads/some-file"],
  ["GET", "/api/admin/appointments"],
  ["POST", "/api/admin/appointments/1/refresh"],
  ["DELETE", "/api/admin/appointments/1"],
];

describe("admin endpoints without a valid session", () => {
  for (const [method, path] of ADMIN_CALLS) {
    it(`${method} ${path} answers 401 without a token, with a garbage and an expired token`, async () => {
      const json = method === "GET" ? undefined : {};
      for (const token of [undefined, "garbage-token", expiredToken]) {
        const res = await server.fetch(path, { method, json, token });
        expect(res.status, `token ${token}`).toBe(401);
        const body = await res.json();
        expect(body.error).toBeTruthy();
      }
    });
  }

  it("the expired token really was a working token before it expired", async () => {
    const fresh = await apiLogin(server, "admin", "admin-passwort");
    expect((await server.fetch("/api/admin/users", { token: fresh })).status).toBe(200);
  });

  it("GET /api/uploads/{filename} refuses a garbage or expired ?token= with 401", async () => {
    for (const token of ["garbage-token", expiredToken]) {
      const res = await server.fetch(`/api/uploads/some-file?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(401);
    }
  });

  it("protected pages redirect to the login page with a garbage cookie", async () => {
    const res = await server.fetch("/admin/dashboard", {
      headers: { cookie: "__session=garbage" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/admin\/login/);
  });

  it("public account calls work without a token", async () => {
    const validate = await server.fetch("/api/admin/invitations/validate/unbekannt");
    expect(validate.status).toBe(404);
    expect(await validate.json()).toMatchObject({
      valid: false,
      message: "Ungültiger oder abgelaufener Einladungslink.",
    });
    const forgot = await server.fetch("/api/admin/auth/forgot-password", {
      method: "POST",
      json: { email: "niemand@example.com" },
    });
    expect(forgot.status).toBe(200);
    const reset = await server.fetch("/api/admin/auth/reset-password", {
      method: "POST",
      json: { token: "unbekannt", newPassword: "neues-passwort" },
    });
    expect(reset.status).toBe(400);
  });
});
