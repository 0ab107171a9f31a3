import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { API_SCOPES } from "~/lib/api-tokens";
import {
  apiLogin,
  insertAdmin,
  linkToken,
  pageSessionCookie,
  startInbox,
  testDb,
} from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

// Step-up for power over other admins (ADR 315): resetting another admin's 2FA, a reset link,
// (de)activating, deleting, activating an invitation directly and changing the 2FA rule need a
// recent proof of the acting admin — the password or a current code, valid 5 minutes for this
// session only. A session alone (stolen, or left open) takes over nobody. The server runs in this
// process: a fake clock (Date only) moves the 5 minutes and the TOTP window.

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, APP_URL: "http://portal.test" });
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-05-06T08:00:05Z") });
});
afterAll(async () => {
  vi.useRealTimers();
  await server.close();
  await inbox.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
const totp = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });

const post = (path: string, json: unknown, token?: string) =>
  server.fetch(path, { method: "POST", json, token });

/** A form post of the users page with the session cookie (no JavaScript). */
const usersPost = (cookie: string, fields: Record<string, string>) =>
  server.fetch("/admin/users", {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const cookieOf = (username: string, password: string) =>
  pageSessionCookie(server, username, password);

/** The page login of an admin with TOTP: password, then the code step (a code of a later step). */
async function cookieOfWithCode(username: string, password: string) {
  const form = (fields: Record<string, string>) =>
    server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  const first = await form({ username, password });
  const challenge = (await first.text()).match(/name="challenge" value="([^"]+)"/)?.[1] ?? "";
  advance(30);
  const secret = secrets.get(username) as string;
  const done = await form({ intent: "code", challenge, code: totp(secret) });
  expect(done.status).toBe(302);
  return (done.headers.getSetCookie().find((c) => c.startsWith("__session=")) ?? "").split(
    ";",
  )[0] as string;
}

const secrets = new Map<string, string>();

async function enrol(token: string, password: string) {
  const setup = await post("/api/admin/account/2fa/setup", { password }, token);
  expect(setup.status).toBe(200);
  const { secret } = await setup.json();
  const enabled = await post("/api/admin/account/2fa/enable", { code: totp(secret) }, token);
  expect(enabled.status).toBe(200);
  const me = await (await server.fetch("/api/admin/auth/verify", { token })).json();
  secrets.set(me.admin?.username ?? me.username, secret);
  return secret as string;
}

const row = <T>(sql: string, ...args: unknown[]) => {
  const db = testDb();
  try {
    return db.prepare(sql).get(...args) as T;
  } finally {
    db.close();
  }
};
const totpOn = (id: number) =>
  row<{ enabled: number }>("SELECT totp_enabled AS enabled FROM admins WHERE id = ?", id)
    .enabled === 1;
const isActive = (id: number) =>
  row<{ a: number }>("SELECT is_active AS a FROM admins WHERE id = ?", id).a === 1;
const exists = (id: number) => !!row("SELECT id FROM admins WHERE id = ?", id);
const audits = (action: string, target: string) =>
  row<{ n: number }>(
    "SELECT count(*) AS n FROM audit_log WHERE action = ? AND target = ?",
    action,
    target,
  ).n;

async function invite(email: string, token: string) {
  const res = await post("/api/admin/invite", { email }, token);
  expect(res.status).toBe(201);
  return (await res.json()).invitation.id as number;
}

const stepUpAsked = (html: string) => html.includes("data-step-up=");

describe("a session alone takes over nobody", { timeout: 90_000 }, () => {
  it("the users page asks for the password before each power over another admin (no JS)", async () => {
    const anna = await insertAdmin("anna-stepup");
    const bert = await insertAdmin("bert-stepup");
    const bertToken = await apiLogin(server, bert.username, bert.password);
    await enrol(bertToken, bert.password);
    const cookie = await cookieOf(anna.username, anna.password);
    const invitation = await invite(
      "neu-stepup@example.com",
      await apiLogin(server, anna.username, anna.password),
    );

    const posts: Record<string, string>[] = [
      { intent: "reset-2fa", id: String(bert.id), confirmed: "1" },
      { intent: "reset-link", id: String(bert.id) },
      { intent: "toggle", id: String(bert.id), activate: "0" },
      { intent: "delete", id: String(bert.id), confirmed: "1" },
      { intent: "activate-invitation", id: String(invitation) },
    ];
    for (const fields of posts) {
      const res = await usersPost(cookie, fields);
      const html = await res.text();
      expect(res.status, fields.intent).toBe(200);
      expect(stepUpAsked(html), fields.intent).toBe(true);
      expect(html).toContain("Identität bestätigen");
      // The step keeps the rest of the form.
      for (const [name, value] of Object.entries(fields))
        expect(html).toContain(`name="${name}" value="${value}"`);
      expect(html).not.toMatch(/reset-password\?token=/);
    }
    // Nothing happened.
    expect(totpOn(bert.id)).toBe(true);
    expect(isActive(bert.id)).toBe(true);
    expect(exists(bert.id)).toBe(true);
    expect(audits("password-reset-link", bert.username)).toBe(0);
    expect(row("SELECT id FROM admins WHERE email = 'neu-stepup@example.com'")).toBeUndefined();
  });

  it("the API answers 403 stepUpRequired without a proof (toggle, delete, direct activation, 2FA rule)", async () => {
    const carla = await insertAdmin("carla-stepup");
    const dora = await insertAdmin("dora-stepup");
    const token = await apiLogin(server, carla.username, carla.password);
    const invitation = await invite("neu2-stepup@example.com", token);
    const answers = [
      await post(`/api/admin/users/${dora.id}/toggle-status`, { activate: false }, token),
      await server.fetch(`/api/admin/users/${dora.id}`, { method: "DELETE", token }),
      await post(`/api/admin/invitations/${invitation}/activate`, {}, token),
      await server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { security: { requireTwoFactor: true } },
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body).toMatchObject({ success: false, stepUpRequired: true });
      expect(body.error).toMatch(/Passwort/);
    }
    expect(isActive(dora.id)).toBe(true);
    // Other settings need no proof: only a change of the 2FA rule asks.
    const banner = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { banner: { enabled: false, text: "" }, security: { requireTwoFactor: false } },
    });
    expect(banner.status).toBe(200);
    // A body the save completes from stored values (a webhook without its secret) asks too: the
    // rule is compared fail-closed, not only on a body that parses as it came.
    const hook = {
      id: "stepup-hook",
      url: "https://hooks.example.com/crm",
      events: ["request.created"],
    };
    const saved = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { webhooks: [{ ...hook, secret: "ein-geheimnis-mit-genug-zeichen-2026" }] },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const sneaked = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { webhooks: [hook], security: { requireTwoFactor: true } },
    });
    expect(sneaked.status).toBe(403);
    expect(await sneaked.json()).toMatchObject({ stepUpRequired: true });
    const rule = await server.fetch("/api/configuration", { token });
    expect((await rule.json()).security).toEqual({ requireTwoFactor: false });
  });
});

// Many scrypt checks per test: generous time on a loaded machine.
describe("the proof", { timeout: 90_000 }, () => {
  it("a wrong password is refused at its field; the right one holds 5 minutes for this session only", async () => {
    const emil = await insertAdmin("emil-stepup");
    const fritz = await insertAdmin("fritz-stepup");
    const token = await apiLogin(server, emil.username, emil.password);
    const toggle = (activate: boolean, extra: object = {}, as = token) =>
      post(`/api/admin/users/${fritz.id}/toggle-status`, { activate, ...extra }, as);

    const wrong = await toggle(false, { stepUp: { password: "falsch-falsch" } });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).fieldErrors).toEqual({
      "stepUp.password": ["Das Passwort ist falsch."],
    });
    expect(isActive(fritz.id)).toBe(true);

    const right = await toggle(false, { stepUp: { password: emil.password } });
    expect(right.status).toBe(200);
    expect(isActive(fritz.id)).toBe(false);
    // Within 5 minutes this session needs no new proof.
    advance(290);
    expect((await toggle(true)).status).toBe(200);
    // Another session of the same admin has proven nothing.
    const second = await apiLogin(server, emil.username, emil.password);
    expect((await toggle(false, {}, second)).status).toBe(403);
    // After 5 minutes the first one asks again.
    advance(11);
    expect((await toggle(false)).status).toBe(403);
    expect(isActive(fritz.id)).toBe(true);
  });

  it("a current code proves it too; a code is used once", async () => {
    const gerda = await insertAdmin("gerda-stepup");
    const hans = await insertAdmin("hans-stepup");
    const token = await apiLogin(server, gerda.username, gerda.password);
    const secret = await enrol(token, gerda.password);
    advance(30);
    const code = totp(secret);
    const ok = await post(
      `/api/admin/users/${hans.id}/toggle-status`,
      { activate: false, stepUp: { code } },
      token,
    );
    expect(ok.status).toBe(200);
    // Expired proof, the same code again: refused.
    advance(301);
    const replay = await post(
      `/api/admin/users/${hans.id}/toggle-status`,
      { activate: true, stepUp: { code } },
      token,
    );
    expect(replay.status).toBe(403);
    expect((await replay.json()).fieldErrors).toEqual({
      "stepUp.code": ["Der Code ist ungültig oder wurde bereits verwendet."],
    });
  });

  it("is cleared at logout: the next session of the same browser asks again", async () => {
    const ida = await insertAdmin("ida-stepup");
    const jan = await insertAdmin("jan-stepup");
    const cookie = await cookieOf(ida.username, ida.password);
    const fields = { intent: "toggle", id: String(jan.id), activate: "0" };
    const proven = await usersPost(cookie, { ...fields, "stepUp.password": ida.password });
    expect(proven.status).toBe(302);
    expect(isActive(jan.id)).toBe(false);
    await server.fetch("/admin/logout", { method: "POST", headers: { cookie } });
    const again = await cookieOf(ida.username, ida.password);
    const asked = await usersPost(again, { ...fields, activate: "1" });
    expect(stepUpAsked(await asked.text())).toBe(true);
    expect(isActive(jan.id)).toBe(false);
  });

  it("wrong proofs count on the account's login lock: of 12 parallel wrong passwords exactly 10 are checked", async () => {
    const karl = await insertAdmin("karl-stepup");
    const lena = await insertAdmin("lena-stepup");
    const token = await apiLogin(server, karl.username, karl.password);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(
          `/api/admin/users/${lena.id}/toggle-status`,
          { activate: false, stepUp: { password: `falsch-${i}-falsch` } },
          token,
        ),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(10).fill(403), 429, 429]);
    expect(answers.find((a) => a.status === 429)?.headers.get("retry-after")).toBeTruthy();
    // Locked: the right password waits too.
    const locked = await post(
      `/api/admin/users/${lena.id}/toggle-status`,
      { activate: false, stepUp: { password: karl.password } },
      token,
    );
    expect(locked.status).toBe(429);
    expect(isActive(lena.id)).toBe(true);
  });
});

describe("with the proof", { timeout: 90_000 }, () => {
  it("resets another admin's 2FA through the step, which keeps the form (no JS); the target is mailed", async () => {
    const mia = await insertAdmin("mia-stepup");
    const nils = await insertAdmin("nils-stepup");
    await enrol(await apiLogin(server, nils.username, nils.password), nils.password);
    const cookie = await cookieOf(mia.username, mia.password);
    const fields = { intent: "reset-2fa", id: String(nils.id), confirmed: "1" };
    const wrong = await usersPost(cookie, { ...fields, "stepUp.password": "nicht-richtig" });
    expect(wrong.status).toBe(403);
    const html = await wrong.text();
    expect(stepUpAsked(html)).toBe(true);
    expect(html).toContain("Das Passwort ist falsch.");
    expect(html).not.toContain("nicht-richtig");
    expect(totpOn(nils.id)).toBe(true);
    const done = await usersPost(cookie, { ...fields, "stepUp.password": mia.password });
    expect(done.status).toBe(302);
    expect(totpOn(nils.id)).toBe(false);
    await server.drainOutbox();
    const mail = await inbox.waitFor(nils.email, /Zwei-Faktor-Anmeldung wurde zurückgesetzt/);
    expect(mail.text).toContain("mia-stepup");
  });

  it("a reset link for another admin is mailed to them, not shown to the actor (with SMTP); audited", async () => {
    const olga = await insertAdmin("olga-stepup");
    const paul = await insertAdmin("paul-stepup");
    const cookie = await cookieOf(olga.username, olga.password);
    const res = await usersPost(cookie, {
      intent: "reset-link",
      id: String(paul.id),
      "stepUp.password": olga.password,
    });
    // Back to the page with a toast naming where the link went; the link itself is not in it.
    expect(res.status).toBe(302);
    const flash = res.headers.getSetCookie().find((c) => c.startsWith("__flash=")) ?? "";
    expect(flash).toBeTruthy();
    const page = await (
      await server.fetch("/admin/users", {
        headers: { cookie: `${cookie}; ${flash.split(";")[0]}` },
      })
    ).text();
    expect(page).toContain("per E-Mail an paul-stepup (paul-stepup@example.com) gesendet");
    expect(page).not.toMatch(/reset-password\?token=/);
    expect(audits("password-reset-link", paul.username)).toBe(1);
    await server.drainOutbox();
    const mail = await inbox.waitFor(paul.email, /Passwort/);
    expect(mail.text).toContain("olga-stepup");
    const token = linkToken(mail.text, "/admin/reset-password");
    const reset = await post("/api/admin/auth/reset-password", {
      token,
      newPassword: "ganz-neues-passwort-1",
    });
    expect(reset.status).toBe(200);
  });

  it("tells the target by mail of a deactivation, an activation and a deletion", async () => {
    const rosa = await insertAdmin("rosa-stepup");
    const sven = await insertAdmin("sven-stepup");
    // A colleague who has logged in before (not a registration awaiting activation).
    await apiLogin(server, sven.username, sven.password);
    const token = await apiLogin(server, rosa.username, rosa.password);
    const stepUp = { password: rosa.password };
    expect(
      (await post(`/api/admin/users/${sven.id}/toggle-status`, { activate: false, stepUp }, token))
        .status,
    ).toBe(200);
    expect(
      (await post(`/api/admin/users/${sven.id}/toggle-status`, { activate: true }, token)).status,
    ).toBe(200);
    const deleted = await server.fetch(`/api/admin/users/${sven.id}`, {
      method: "DELETE",
      token,
      json: {},
    });
    expect(deleted.status).toBe(200);
    await server.drainOutbox();
    const subjects = inbox.mails.filter((m) => m.to.includes(sven.email)).map((m) => m.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        "Ihr Admin-Zugang wurde deaktiviert",
        "Ihr Admin-Zugang wurde wieder aktiviert",
        "Ihr Admin-Zugang wurde entfernt",
      ]),
    );
  });

  it("changes the 2FA rule on the account page only after the step", async () => {
    const tina = await insertAdmin("tina-stepup");
    // With a second factor of her own, so the rule does not hold her back once it is on.
    await enrol(await apiLogin(server, tina.username, tina.password), tina.password);
    const cookie = await cookieOfWithCode(tina.username, tina.password);
    const form = (fields: Record<string, string>) =>
      server.fetch("/admin/account", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const rule = () =>
      row<{ data: string }>("SELECT data FROM configuration WHERE id = 1")?.data ?? "{}";
    // Saving the rule as it is asks nothing.
    const same = await form({ intent: "2fa-require" });
    expect(stepUpAsked(await same.text())).toBe(false);
    const asked = await form({ intent: "2fa-require", requireTwoFactor: "on" });
    const html = await asked.text();
    expect(stepUpAsked(html)).toBe(true);
    expect(html).toContain('name="requireTwoFactor" value="on"');
    // She has a code: the step offers it beside the password.
    expect(html).toContain('name="stepUp.code"');
    expect(JSON.parse(rule()).security?.requireTwoFactor ?? false).toBe(false);
    const saved = await form({
      intent: "2fa-require",
      requireTwoFactor: "on",
      "stepUp.password": tina.password,
    });
    expect(saved.status).toBe(200);
    expect(JSON.parse(rule()).security.requireTwoFactor).toBe(true);
    // Every other admin hears of it.
    await server.drainOutbox();
    const notice = await inbox.waitFor(
      "anna-stepup@example.com",
      /Zwei-Faktor-Anmeldung für alle Admins verlangt/,
    );
    expect(notice.text).toContain("tina-stepup hat die Zwei-Faktor-Anmeldung für alle Admins");
    // Back off again (fresh proof: no new question), so other tests are not held.
    const off = await form({ intent: "2fa-require" });
    expect(off.status).toBe(200);
    expect(JSON.parse(rule()).security.requireTwoFactor).toBe(false);
  });
});

describe("API tokens never do these actions", { timeout: 90_000 }, () => {
  it("answers 401 to a token of every scope, whatever the body says", async () => {
    const uwe = await insertAdmin("uwe-stepup");
    const vera = await insertAdmin("vera-stepup");
    const session = await apiLogin(server, uwe.username, uwe.password);
    const created = await post(
      "/api/admin/api-tokens",
      {
        name: "Alles",
        scopes: API_SCOPES,
        password: uwe.password,
      },
      session,
    );
    expect(created.status).toBe(201);
    const token = (await created.json()).token as string;
    const stepUp = { password: uwe.password };
    const invitation = await invite("neu3-stepup@example.com", session);
    const answers = [
      await post(`/api/admin/users/${vera.id}/toggle-status`, { activate: false, stepUp }, token),
      await server.fetch(`/api/admin/users/${vera.id}`, {
        method: "DELETE",
        token,
        json: { stepUp },
      }),
      await post(`/api/admin/invitations/${invitation}/activate`, { stepUp }, token),
      await server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { security: { requireTwoFactor: true }, stepUp },
      }),
      await post(
        "/api/admin/api-tokens",
        { name: "Mehr", scopes: ["requests:read"], password: uwe.password },
        token,
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(isActive(vera.id)).toBe(true);
  });
});
