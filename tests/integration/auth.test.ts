import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAdmin } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
/** An admin whose first password change is still pending (like the first admin with a printed password). */
let pending: { username: string; password: string };
beforeAll(async () => {
  server = await startTestServer();
  pending = await insertAdmin("neu-admin", { passwordChanged: false });
});
afterAll(async () => {
  await server.close();
});

const login = (username: string, password: string) =>
  server.fetch("/api/admin/auth/login", { method: "POST", json: { username, password } });

function form(fields: Record<string, string>) {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  };
}

describe("login API", () => {
  it("answers {success, token, admin, message} and the token works as Bearer", async () => {
    const res = await login("admin", "admin-passwort");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, admin: { username: "admin", is_active: true } });
    expect(typeof body.token).toBe("string");
    expect(typeof body.message).toBe("string");
    expect(body.admin).not.toHaveProperty("passwordHash");
    const verify = await server.fetch("/api/admin/auth/verify", { token: body.token });
    expect(verify.status).toBe(200);
    expect((await verify.json()).admin.username).toBe("admin");
  });

  it("trims the username and validates with the spec's messages", async () => {
    expect((await login("  admin  ", "admin-passwort")).status).toBe(200);
    const res = await login("  ", "");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fieldErrors.username).toEqual(["Benutzername ist erforderlich"]);
    expect(body.fieldErrors.password).toEqual(["Passwort ist erforderlich"]);
  });

  it("gives the same answer for an unknown user and a wrong password", async () => {
    const wrong = await login("admin", "falsch");
    const unknown = await login("niemand", "falsch");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBeTruthy();
  });

  it("logout ends the session", async () => {
    const { token } = await (await login("admin", "admin-passwort")).json();
    const out = await server.fetch("/api/admin/auth/logout", { method: "POST", token });
    expect(out.status).toBe(200);
    expect((await server.fetch("/api/admin/auth/verify", { token })).status).toBe(401);
  });
});

describe("login page", () => {
  it("shows the form with the contract labels", async () => {
    const html = await (await server.fetch("/admin/login")).text();
    expect(html).toContain(">Benutzername<");
    expect(html).toContain(">Passwort<");
    expect(html).toContain(">Anmelden<");
  });

  it("validates on the server with the spec's messages", async () => {
    const res = await server.fetch("/admin/login", form({ username: " ", password: "" }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Benutzername ist erforderlich");
    expect(html).toContain("Passwort ist erforderlich");
  });

  it("logs in with a cookie; the admin chose ADMIN_PASSWORD, so the dashboard opens", async () => {
    const res = await server.fetch(
      "/admin/login",
      form({ username: "admin", password: "admin-passwort" }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/dashboard");
    const dashboard = await server.fetch("/admin/dashboard", {
      headers: { cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] },
    });
    expect(dashboard.status).toBe(200);
  });

  it("logs in with a cookie; a pending first password change comes first", async () => {
    const res = await server.fetch(
      "/admin/login",
      form({ username: pending.username, password: pending.password }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/change-password?firstLogin=1");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const dashboard = await server.fetch("/admin/dashboard", {
      headers: { cookie: cookie.split(";")[0] },
    });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toBe("/admin/change-password?firstLogin=1");
  });

  it("shows one error for a wrong password and never echoes the password", async () => {
    const res = await server.fetch(
      "/admin/login",
      form({ username: "admin", password: "geheim-falsch" }),
    );
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("Ungültiger Benutzername oder Passwort.");
    expect(html).not.toContain("geheim-falsch");
  });

  it("only follows redirectTo inside /admin", async () => {
    const res = await server.fetch(
      "/admin/login",
      form({ username: "admin", password: "admin-passwort", redirectTo: "//evil.example" }),
    );
    expect(res.headers.get("location")).toBe("/admin/dashboard");
    const inside = await server.fetch(
      "/admin/login",
      form({ username: "admin", password: "admin-passwort", redirectTo: "/admin/users" }),
    );
    expect(inside.headers.get("location")).toBe("/admin/users");
  });

  it("client data requests of the forced change-password page do not loop", async () => {
    const res = await server.fetch(
      "/admin/login",
      form({ username: pending.username, password: pending.password }),
    );
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    const page = await server.fetch("/admin/change-password.data?firstLogin=1", {
      headers: { cookie },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("SingleFetchRedirect");
    const other = await server.fetch("/admin/users.data", { headers: { cookie } });
    expect(await other.text()).toContain("/admin/change-password?firstLogin=1");
  });

  it("a data request without a session sends the page path (not .data) as redirectTo", async () => {
    const res = await server.fetch("/admin/users.data?_routes=routes%2Fadmin%2Fusers");
    const text = await res.text();
    expect(text).toContain("/admin/login?redirectTo=%2Fadmin%2Fusers");
    expect(text).not.toContain(".data");
  });

  it("keeps protected pages behind the login without a session", async () => {
    const res = await server.fetch("/admin/users");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fusers");
  });
});
