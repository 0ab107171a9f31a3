import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, insertAdmin, linkToken, startInbox, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
beforeAll(async () => {
  inbox = await startInbox();
  // Many resets from one IP in this file: a generous limit (the limit has its own test file).
  server = await startTestServer({
    SMTP_URL: inbox.url,
    APP_URL: "http://portal.test",
    LOGIN_RATE_LIMIT: "100/15m",
  });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
  delete process.env.LOGIN_RATE_LIMIT;
});

const forgot = (email: string) =>
  server.fetch("/api/admin/auth/forgot-password", { method: "POST", json: { email } });
const reset = (token: string, newPassword: string) =>
  server.fetch("/api/admin/auth/reset-password", { method: "POST", json: { token, newPassword } });
const verify = (token: string) => server.fetch("/api/admin/auth/verify", { token });

describe("forgot and reset password", () => {
  it("with SMTP the forgot-password page shows no 'no mail' notice", async () => {
    const html = await (await server.fetch("/admin/forgot-password")).text();
    expect(html).toContain("Link senden");
    expect(html).not.toContain("kein E-Mail-Versand (SMTP) eingerichtet");
  });

  it("answers neutrally whether or not the account exists", async () => {
    const known = await insertAdmin("mia");
    const a = await forgot(known.email);
    const b = await forgot("unbekannt@example.com");
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
    await inbox.waitFor(known.email, /Passwort zurücksetzen/);
    await server.drainOutbox();
    expect(inbox.mails.some((m) => m.to.includes("unbekannt@example.com"))).toBe(false);
  });

  it("resets once with the mailed link, ends every session, and refuses the link again", async () => {
    const user = await insertAdmin("nina");
    const s1 = await apiLogin(server, user.username, user.password);
    const s2 = await apiLogin(server, user.username, user.password);
    await forgot(user.email);
    const mail = await inbox.waitFor(user.email, /Passwort zurücksetzen/);
    expect(mail.text).toContain("http://portal.test/admin/reset-password?token=");
    const link = linkToken(mail.text, "/admin/reset-password");

    const short = await reset(link, "kurz");
    expect(short.status).toBe(400);
    expect((await short.json()).fieldErrors.newPassword).toEqual([
      "Passwort muss mindestens 12 Zeichen lang sein",
    ]);
    const ok = await reset(link, "ganz-neues-passwort");
    expect(ok.status).toBe(200);
    expect((await ok.json()).success).toBe(true);
    expect((await verify(s1)).status).toBe(401);
    expect((await verify(s2)).status).toBe(401);
    await apiLogin(server, user.username, "ganz-neues-passwort");

    const reuse = await reset(link, "noch-ein-passwort");
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).success).toBe(false);
    const page = await (await server.fetch(`/admin/reset-password?token=${link}`)).text();
    expect(page).toContain("ungültig");
  });

  it("refuses an expired reset link; the page without a token says so", async () => {
    const user = await insertAdmin("otto");
    await forgot(user.email);
    const link = linkToken(
      (await inbox.waitFor(user.email, /Passwort/)).text,
      "/admin/reset-password",
    );
    const db = testDb();
    db.prepare("UPDATE password_resets SET expires_at = ? WHERE admin_id = ?").run(
      Date.now() - 1,
      user.id,
    );
    db.close();
    expect((await reset(link, "ganz-neues-passwort")).status).toBe(400);
    const page = await (await server.fetch("/admin/reset-password")).text();
    expect(page).toContain(
      "Kein Reset-Token gefunden. Bitte fordern Sie einen neuen Reset-Link an.",
    );
  });

  it("stores reset tokens only as hashes, valid for one hour", async () => {
    const user = await insertAdmin("paula");
    await forgot(user.email);
    const link = linkToken(
      (await inbox.waitFor(user.email, /Passwort/)).text,
      "/admin/reset-password",
    );
    const db = testDb();
    const row = db
      .prepare("SELECT token_hash, expires_at FROM password_resets WHERE admin_id = ?")
      .get(user.id) as {
      token_hash: string;
      expires_at: number;
    };
    db.close();
    expect(row.token_hash).not.toBe(link);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const minutes = (row.expires_at - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it("the reset page form works without JS and checks the confirmation", async () => {
    const user = await insertAdmin("quirin");
    await forgot(user.email);
    const link = linkToken(
      (await inbox.waitFor(user.email, /Passwort/)).text,
      "/admin/reset-password",
    );
    const post = (fields: Record<string, string>) =>
      server.fetch(`/admin/reset-password?token=${encodeURIComponent(link)}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: link, ...fields }).toString(),
      });
    const mismatch = await post({
      newPassword: "Wolke-Lampe-482",
      confirmPassword: "Wolke-Lampe-483",
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwörter stimmen nicht überein");
    const done = await post({ newPassword: "Wolke-Lampe-482", confirmPassword: "Wolke-Lampe-482" });
    expect(done.status).toBe(200);
    const html = await done.text();
    expect(html).toContain('http-equiv="refresh"');
    expect(html).toContain("/admin/login?notice=reset");
  });
});

describe("token sweep", () => {
  it("removes expired sessions and used or expired reset tokens", async () => {
    const { sweepAccountTokens } = await import("~/server/accounts/auth.server");
    const user = await insertAdmin("ulla");
    const live = await apiLogin(server, user.username, user.password);
    const db = testDb();
    db.prepare("INSERT INTO sessions (token_hash, admin_id, expires_at) VALUES ('alt', ?, ?)").run(
      user.id,
      Date.now() - 1000,
    );
    db.prepare(
      "INSERT INTO password_resets (admin_id, token_hash, expires_at, used_at) VALUES (?, 'r1', ?, NULL), (?, 'r2', ?, ?), (?, 'r3', ?, NULL)",
    ).run(
      user.id,
      Date.now() - 1000,
      user.id,
      Date.now() + 60_000,
      Date.now(),
      user.id,
      Date.now() + 60_000,
    );
    db.close();
    const result = sweepAccountTokens();
    expect(result.expiredSessions).toBeGreaterThanOrEqual(1);
    const check = testDb();
    const resets = check
      .prepare("SELECT token_hash FROM password_resets WHERE admin_id = ?")
      .all(user.id);
    const old = check.prepare("SELECT 1 FROM sessions WHERE token_hash = 'alt'").get();
    check.close();
    expect(resets).toEqual([{ token_hash: "r3" }]);
    expect(old).toBeUndefined();
    expect((await verify(live)).status).toBe(200);
  });
});

describe("change password", () => {
  it("validates with the spec's messages", async () => {
    const user = await insertAdmin("rita");
    const token = await apiLogin(server, user.username, user.password);
    const res = await server.fetch("/api/admin/auth/change-password", {
      method: "POST",
      token,
      json: { oldPassword: "", newPassword: "abc" },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fieldErrors.oldPassword).toEqual(["Aktuelles Passwort ist erforderlich"]);
    expect(body.fieldErrors.newPassword).toEqual([
      "Neues Passwort muss mindestens 12 Zeichen lang sein",
    ]);
    const wrong = await server.fetch("/api/admin/auth/change-password", {
      method: "POST",
      token,
      json: { oldPassword: "falsch", newPassword: "Wolke-Lampe-482" },
    });
    expect(wrong.status).toBe(400);
  });

  it("changes the password, keeps this session and ends the others", async () => {
    const user = await insertAdmin("sven");
    const current = await apiLogin(server, user.username, user.password);
    const other = await apiLogin(server, user.username, user.password);
    const res = await server.fetch("/api/admin/auth/change-password", {
      method: "POST",
      token: current,
      json: { oldPassword: user.password, newPassword: "neu-und-sicher" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: "Passwort erfolgreich geändert!" });
    expect((await verify(current)).status).toBe(200);
    expect((await verify(other)).status).toBe(401);
    await apiLogin(server, user.username, "neu-und-sicher");
  });

  it("the page shows the spec's messages without JS", async () => {
    const user = await insertAdmin("tina");
    const login = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: user.username, password: user.password }).toString(),
    });
    const cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
    const post = (fields: Record<string, string>) =>
      server.fetch("/admin/change-password", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const empty = await (await post({})).text();
    expect(empty).toContain("Aktuelles Passwort ist erforderlich");
    expect(empty).toContain("Neues Passwort ist erforderlich");
    const mismatch = await (
      await post({
        oldPassword: user.password,
        newPassword: "Wolke-Lampe-482",
        confirmPassword: "Wolke-Lampe-483",
      })
    ).text();
    expect(mismatch).toContain("Passwort-Bestätigung stimmt nicht überein");
    const ok = await post({
      oldPassword: user.password,
      newPassword: "Wolke-Lampe-482",
      confirmPassword: "Wolke-Lampe-482",
    });
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain("Passwort erfolgreich geändert!");
    expect(html).toContain("Sicherheitstipps");
    expect(html).toContain("Zurück zum Dashboard");
  });
});
