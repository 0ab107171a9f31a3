import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, linkToken, startInbox, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
let token: string;
beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, APP_URL: "http://portal.test" });
  token = await apiLogin(server, "admin", "admin-passwort");
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

const invite = (email: string) =>
  server.fetch("/api/admin/invite", { method: "POST", token, json: { email } });
const register = (invitationToken: string, username: string, password = "Geheim-Wolke-482") =>
  server.fetch("/api/admin/register", {
    method: "POST",
    json: { invitationToken, username, password },
  });

describe("invitations", () => {
  it("validates the e-mail with German messages", async () => {
    const res = await invite("kein-mail");
    expect(res.status).toBe(400);
    expect((await res.json()).fieldErrors.email).toEqual([
      "Bitte geben Sie eine gültige E-Mail-Adresse ein!",
    ]);
  });

  it("mails a register link, stores only the hash and lists the invitation", async () => {
    const res = await invite("Anna@Example.com");
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, invitation: { email: "anna@example.com" } });
    const mail = await inbox.waitFor("anna@example.com", /Einladung/);
    const mailed = linkToken(mail.text, "/admin/register");
    expect(mail.text).toContain("http://portal.test/admin/register?token=");
    expect(mailed).toBe(body.invitationToken);
    const db = testDb();
    const row = db.prepare("SELECT * FROM invitations WHERE email = ?").get("anna@example.com") as {
      token_hash: string;
      expires_at: number;
    };
    db.close();
    expect(row.token_hash).not.toContain(mailed);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const days = (row.expires_at - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const list = await (await server.fetch("/api/admin/invitations", { token })).json();
    expect(list.invitations).toContainEqual(
      expect.objectContaining({ email: "anna@example.com", invited_by: "admin", expired: false }),
    );
    const valid = await server.fetch(`/api/admin/invitations/validate/${mailed}`);
    expect(await valid.json()).toMatchObject({ valid: true, email: "anna@example.com" });
  });

  it("registers once: the account is inactive and the link cannot be reused", async () => {
    await invite("bert@example.com");
    const link = linkToken(
      (await inbox.waitFor("bert@example.com", /Einladung/)).text,
      "/admin/register",
    );
    const bad = await register(link, "bert", "kurz");
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors.password).toEqual([
      "Passwort muss mindestens 12 Zeichen lang sein.",
    ]);
    const taken = await register(link, "Admin");
    expect(taken.status).toBe(409);
    expect((await taken.json()).fieldErrors.username).toEqual([
      "Dieser Benutzername ist bereits vergeben.",
    ]);
    // A refused attempt does not use the invitation up.
    const ok = await register(link, "bert");
    expect(ok.status).toBe(201);
    const again = await register(link, "bert2");
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe("Ungültiger oder abgelaufener Einladungslink.");
    // Awaiting activation: no login yet.
    const login = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      json: { username: "bert", password: "Geheim-Wolke-482" },
    });
    expect(login.status).toBe(403);
    const users = await (await server.fetch("/api/admin/users", { token })).json();
    expect(users.admins).toContainEqual(
      expect.objectContaining({ username: "bert", email: "bert@example.com", is_active: false }),
    );
  });

  it("refuses an expired invitation", async () => {
    await invite("clara@example.com");
    const link = linkToken(
      (await inbox.waitFor("clara@example.com", /Einladung/)).text,
      "/admin/register",
    );
    const db = testDb();
    db.prepare("UPDATE invitations SET expires_at = ? WHERE email = ?").run(
      Date.now() - 1000,
      "clara@example.com",
    );
    db.close();
    expect((await server.fetch(`/api/admin/invitations/validate/${link}`)).status).toBe(404);
    const res = await register(link, "clara");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Ungültiger oder abgelaufener Einladungslink.");
    const page = await (await server.fetch(`/admin/register?token=${link}`)).text();
    expect(page).toContain("Ungültiger oder abgelaufener Einladungslink.");
  });

  it("resend makes a new link and kills the old one", async () => {
    const created = await (await invite("dora@example.com")).json();
    const old = created.invitationToken as string;
    const res = await server.fetch(`/api/admin/invitations/${created.invitation.id}/resend`, {
      method: "POST",
      token,
    });
    expect(res.status).toBe(200);
    const resent = await res.json();
    const fresh = resent.invitationToken as string;
    expect(fresh).not.toBe(old);
    // With SMTP the mail really leaves, so the answer may say so.
    expect(resent.mailed).toBe(true);
    expect(resent.message).toBe("Einladung erneut gesendet. Der alte Link ist ungültig.");
    expect(created.message).toBe("Einladung an dora@example.com gesendet.");
    expect((await server.fetch(`/api/admin/invitations/validate/${old}`)).status).toBe(404);
    expect((await server.fetch(`/api/admin/invitations/validate/${fresh}`)).status).toBe(200);
  });

  it("activates directly: password shown once to the admin, mail has a set-password link only", async () => {
    const created = await (await invite("emil.e@example.com")).json();
    // Power over a new account needs the step-up (ADR 315).
    const res = await server.fetch(`/api/admin/invitations/${created.invitation.id}/activate`, {
      method: "POST",
      token,
      json: { stepUp: { password: "admin-passwort" } },
    });
    expect(res.status).toBe(200);
    const { adminData } = await res.json();
    expect(adminData.username).toBe("emil.e");
    expect(adminData.password.length).toBeGreaterThanOrEqual(12);
    const mail = await inbox.waitFor("emil.e@example.com", /freigeschaltet/);
    expect(mail.text).not.toContain(adminData.password);
    expect(mail.html).not.toContain(adminData.password);
    const setToken = linkToken(mail.text, "/admin/reset-password");
    // The generated password works, and the account must change it first.
    const login = await (
      await server.fetch("/api/admin/auth/login", {
        method: "POST",
        json: { username: adminData.username, password: adminData.password },
      })
    ).json();
    expect(login.admin).toMatchObject({ is_active: true, password_changed: false });
    const reset = await server.fetch("/api/admin/auth/reset-password", {
      method: "POST",
      json: { token: setToken, newPassword: "eigenes-passwort" },
    });
    expect(reset.status).toBe(200);
    await apiLogin(server, "emil.e", "eigenes-passwort");
    // The invitation is used up.
    const again = await server.fetch(`/api/admin/invitations/${created.invitation.id}/activate`, {
      method: "POST",
      token,
    });
    expect(again.status).toBe(404);
  });

  it("deletes an invitation; unknown ids give 404", async () => {
    const created = await (await invite("fritz@example.com")).json();
    const del = await server.fetch(`/api/admin/invitations/${created.invitation.id}`, {
      method: "DELETE",
      token,
    });
    expect(del.status).toBe(200);
    expect(
      (await server.fetch(`/api/admin/invitations/validate/${created.invitationToken}`)).status,
    ).toBe(404);
    for (const id of [created.invitation.id, "abc", "-1"]) {
      const res = await server.fetch(`/api/admin/invitations/${id}`, { method: "DELETE", token });
      expect(res.status).toBe(404);
    }
  });

  it("counts only unused, unexpired invitations as pending", async () => {
    const { countPendingInvitations } = await import("~/server/accounts/invitations.server");
    const list = (await (await server.fetch("/api/admin/invitations", { token })).json())
      .invitations as { expired: boolean }[];
    expect(countPendingInvitations()).toBe(list.filter((i) => !i.expired).length);
    expect(list.some((i) => i.expired)).toBe(true);
  });

  it("refuses to invite an address that already has an account", async () => {
    const res = await invite("admin@example.com");
    expect(res.status).toBe(409);
  });
});
