// ADR 262: a reset link an admin creates for another admin is audited and the
// target hears of it at the next login. With SMTP the link itself goes to the target, never to the
// actor (ADR 315); creating it needs the actor's step-up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAdmin, startInbox, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
let cookie: string;
beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, APP_URL: "http://portal.test" });
  await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

/** Logs in through the form and follows the redirect with every cookie set: the landing page. */
async function formLogin(username: string, password: string) {
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  expect(login.status).toBe(302);
  const cookies = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const page = await server.fetch(login.headers.get("location") as string, {
    headers: { cookie: cookies },
  });
  return page.text();
}

describe("a reset link created for another admin", () => {
  it("is audited, mailed to the target, and announced at the target's next login (once)", async () => {
    const rita = await insertAdmin("rita-hinweis", { passwordChanged: true });
    // A first login: the notice covers what happens after it.
    expect(await formLogin(rita.username, rita.password)).not.toContain("Passwort-Reset-Link");
    const answer = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({
        intent: "reset-link",
        id: String(rita.id),
        "stepUp.password": "admin-passwort",
      }),
    });
    // Back to the page with a toast (step-up.test.ts: the actor never sees the link); its owner
    // gets it.
    expect(answer.status).toBe(302);
    const mail = await inbox.waitFor(rita.email, /Zurücksetzen Ihres Passworts/);
    // The brand names the portal in every mail (ADR 325); unbranded it is "Anfrage-Portal".
    expect(mail.text).toContain("admin hat für Ihren Admin-Zugang bei Anfrage-Portal einen Link");
    expect(mail.text).toContain("/admin/reset-password?token=");
    const audit = testDb()
      .prepare(
        "SELECT actor_name, details FROM audit_log WHERE action = 'password-reset-link' AND target = ?",
      )
      .all(rita.username) as { actor_name: string; details: string }[];
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_name).toBe("admin");

    const landing = await formLogin(rita.username, rita.password);
    expect(landing).toContain("Seit Ihrer letzten Anmeldung wurde ein Passwort-Reset-Link");
    expect(landing).toContain("(von: admin)");
    // Heard once: the next login is quiet.
    expect(await formLogin(rita.username, rita.password)).not.toContain(
      "Seit Ihrer letzten Anmeldung",
    );
  });

  it("is announced in the API login answer too (`notices`), with the page's text, once", async () => {
    const rolf = await insertAdmin("rolf-hinweis", { passwordChanged: true });
    const apiLogin = async () => {
      const res = await server.fetch("/api/admin/auth/login", {
        method: "POST",
        json: { username: rolf.username, password: rolf.password },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { success: boolean; notices: string[] };
    };
    expect((await apiLogin()).notices).toEqual([]);
    const answer = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({
        intent: "reset-link",
        id: String(rolf.id),
        "stepUp.password": "admin-passwort",
      }),
    });
    expect(answer.status).toBe(302);
    const first = await apiLogin();
    expect(first.success).toBe(true);
    expect(first.notices).toHaveLength(1);
    expect(first.notices[0]).toContain(
      "Seit Ihrer letzten Anmeldung wurde ein Passwort-Reset-Link",
    );
    expect(first.notices[0]).toContain("(von: admin)");
    expect((await apiLogin()).notices).toEqual([]);
  });
});
