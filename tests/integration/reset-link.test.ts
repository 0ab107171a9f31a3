import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAdmin, testDb } from "./auth-helpers";
import { runScript } from "./run-script";
import { startTestServer, type TestServer } from "./server";

// Without SMTP (vitest.setup.ts removes SMTP_URL): no reset mail can ever leave the server.
let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer({ APP_URL: "http://portal.test" });
  await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
  delete process.env.APP_URL;
});

const tokenOf = (link: string) => new URL(link).searchParams.get("token") as string;

async function resetWith(link: string, password: string) {
  return server.fetch("/api/admin/auth/reset-password", {
    method: "POST",
    json: { token: tokenOf(link), newPassword: password },
  });
}

const auditRows = () =>
  testDb()
    .prepare("SELECT actor_name, action, target FROM audit_log WHERE action = ?")
    .all("password-reset-link") as { actor_name: string; action: string; target: string }[];

describe("recovering a password without SMTP", () => {
  it("the forgot-password page says that no mail is sent and how to recover", async () => {
    const html = await (await server.fetch("/admin/forgot-password")).text();
    expect(html).toContain("kein E-Mail-Versand (SMTP) eingerichtet");
    expect(html).toContain("Passwort-Reset-Link erzeugen");
    expect(html).toContain("npm run admin:reset-password");
  });

  it("/admin/users: another admin's reset link is shown once, audited, and works (no JS)", async () => {
    const other = await insertAdmin("rita-reset", { passwordChanged: true });
    const page = await (await server.fetch("/admin/users", { headers: { cookie } })).text();
    expect(page).toContain("Passwort-Reset-Link erzeugen: rita-reset");
    // Asked for the step-up first (ADR 315), then shown: without SMTP the actor hands it over.
    const asked = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ intent: "reset-link", id: String(other.id) }),
    });
    expect(await asked.text()).not.toMatch(/reset-password\?token=/);
    const answer = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({
        intent: "reset-link",
        id: String(other.id),
        "stepUp.password": "admin-passwort",
      }),
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const link = html.match(/http:\/\/portal\.test\/admin\/reset-password\?token=[^"<\s]+/)?.[0];
    expect(link).toBeTruthy();
    expect(auditRows()).toContainEqual({
      actor_name: "admin",
      action: "password-reset-link",
      target: "rita-reset",
    });
    // Shown once: the page itself does not show it again.
    expect(
      await (await server.fetch("/admin/users", { headers: { cookie } })).text(),
    ).not.toContain(tokenOf(link as string));
    expect((await resetWith(link as string, "neues-passwort-1")).status).toBe(200);
    // Not for oneself (own password: "Passwort ändern").
    const me = testDb().prepare("SELECT id FROM admins WHERE username = 'admin'").get() as {
      id: number;
    };
    const own = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ intent: "reset-link", id: String(me.id) }),
    });
    expect(own.status).toBe(404);
  });

  it("npm run admin:reset-password prints a working one-time link (by username or e-mail)", async () => {
    await insertAdmin("carl-cli", { passwordChanged: true, email: "carl@example.com" });
    const run = (who: string) =>
      runScript(["scripts/admin-reset-password.ts", who], {
        ...process.env,
        APP_URL: "http://portal.test",
      });
    const unknown = await run("niemand");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("Admin nicht gefunden.");
    const byMail = await run("CARL@example.com");
    expect(byMail.status).toBe(0);
    const link = byMail.stdout.match(
      /http:\/\/portal\.test\/admin\/reset-password\?token=\S+/,
    )?.[0];
    expect(byMail.stdout).toContain("carl-cli");
    expect(link).toBeTruthy();
    expect(auditRows()).toContainEqual({
      actor_name: "Kommandozeile",
      action: "password-reset-link",
      target: "carl-cli",
    });
    expect((await resetWith(link as string, "neues-passwort-2")).status).toBe(200);
    // Single use.
    expect((await resetWith(link as string, "neues-passwort-3")).status).toBe(400);
    expect((await run("carl-cli")).status).toBe(0);
  }, 60_000); // three script runs, each a Node start (a loaded machine needs more than 20 s)

  it("npm run admin:reset-password refuses a DATABASE_PATH where no database is (and creates none)", () => {
    const missing = path.join(tmpdir(), `kein-portal-${process.pid}`, "data.sqlite");
    const run = spawnSync(process.execPath, ["scripts/admin-reset-password.ts", "admin"], {
      env: { ...process.env, DATABASE_PATH: missing },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Keine Datenbank unter");
    expect(existsSync(path.dirname(missing))).toBe(false);
  });
});
