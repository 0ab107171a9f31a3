import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "~/lib/format";
import {
  apiLogin,
  insertAdmin,
  linkToken,
  pageSessionCookie,
  startInbox,
  testDb,
} from "./auth-helpers";
import { runScript } from "./run-script";
import { startTestServer, type TestServer } from "./server";
import { SoftAuthenticator } from "./soft-authenticator";

// A recovered account takes its intruder's keys away (ADR 316): a password reset and a 2FA reset
// (another admin's "2FA zurücksetzen" or `npm run admin:reset-2fa`) revoke the admin's API tokens
// and calendar-feed links, audited, and the mail to the owner names each one. Passkeys follow the
// same rule: both resets remove them, each audited, and the mail names them with their dates.

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, APP_URL: "http://portal.test" });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

const post = (path: string, json: unknown, token?: string) =>
  server.fetch(path, { method: "POST", json, token });

const cookieOf = (username: string, password: string) =>
  pageSessionCookie(server, username, password);

async function apiToken(session: string, password: string, name: string) {
  const res = await post(
    "/api/admin/api-tokens",
    { name, scopes: ["requests:read"], password },
    session,
  );
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
}

async function feedLink(cookie: string) {
  const res = await server.fetch("/admin/settings", {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "team-calendar-link-create" }).toString(),
  });
  expect(res.status).toBe(200);
  const match = (await res.text()).match(/\/admin\/kalender\.ics\?token=([\w-]+)/);
  if (!match) throw new Error("no feed link");
  return match[1] as string;
}

/** An admin with two API tokens and a calendar-feed link, all working. */
async function withKeys(username: string) {
  const admin = await insertAdmin(username);
  const session = await apiLogin(server, admin.username, admin.password);
  const tokens = [
    await apiToken(session, admin.password, `CRM ${username}`),
    await apiToken(session, admin.password, `n8n ${username}`),
  ];
  const feed = await feedLink(await cookieOf(admin.username, admin.password));
  for (const token of tokens)
    expect((await server.fetch("/api/admin/requests", { token })).status).toBe(200);
  expect((await server.fetch(`/admin/kalender.ics?token=${feed}`)).status).toBe(200);
  return { admin, session, tokens, feed };
}

/** Turns the admin's TOTP on through the API (a 2FA reset needs one to reset). */
async function enrolTotp(keys: Awaited<ReturnType<typeof withKeys>>) {
  const setup = await post(
    "/api/admin/account/2fa/setup",
    { password: keys.admin.password },
    keys.session,
  );
  const { secret } = await setup.json();
  const code = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
  expect((await post("/api/admin/account/2fa/enable", { code }, keys.session)).status).toBe(200);
}

async function expectRevoked(keys: Awaited<ReturnType<typeof withKeys>>) {
  for (const token of keys.tokens)
    expect((await server.fetch("/api/admin/requests", { token })).status).toBe(401);
  expect((await server.fetch(`/admin/kalender.ics?token=${keys.feed}`)).status).toBe(404);
  const db = testDb();
  try {
    const live = db
      .prepare("SELECT count(*) AS n FROM api_tokens WHERE admin_id = ? AND revoked_at IS NULL")
      .get(keys.admin.id) as { n: number };
    expect(live.n).toBe(0);
    const audited = db
      .prepare("SELECT target FROM audit_log WHERE action = 'api-token-revoked' AND target LIKE ?")
      .all(`%${keys.admin.username}`) as { target: string }[];
    expect(audited.map((a) => a.target).sort()).toEqual(
      [`CRM ${keys.admin.username}`, `n8n ${keys.admin.username}`].sort(),
    );
  } finally {
    db.close();
  }
}

function expectListedIn(text: string, keys: Awaited<ReturnType<typeof withKeys>>) {
  expect(text).toContain(`„CRM ${keys.admin.username}“`);
  expect(text).toContain(`„n8n ${keys.admin.username}“`);
  expect(text).toContain("Kalender-Abo-Link");
}

describe("a recovered account takes the intruder's keys away", () => {
  it("a password reset revokes the API tokens and calendar-feed links; the mail names them", async () => {
    const keys = await withKeys("wilma-revoke");
    const bystander = await withKeys("xaver-revoke");
    const asked = await post("/api/admin/auth/forgot-password", { email: keys.admin.email });
    expect(asked.status).toBe(200);
    await server.drainOutbox();
    const resetMail = await inbox.waitFor(keys.admin.email, /Passwort zurücksetzen/);
    const reset = await post("/api/admin/auth/reset-password", {
      token: linkToken(resetMail.text, "/admin/reset-password"),
      newPassword: "wilmas-neues-passwort-1",
    });
    expect(reset.status).toBe(200);
    await expectRevoked(keys);
    await server.drainOutbox();
    const notice = await inbox.waitFor(keys.admin.email, /Passwort wurde zurückgesetzt/);
    expectListedIn(notice.text, keys);
    // Another admin's keys are untouched.
    for (const token of bystander.tokens)
      expect((await server.fetch("/api/admin/requests", { token })).status).toBe(200);
    expect((await server.fetch(`/admin/kalender.ics?token=${bystander.feed}`)).status).toBe(200);
    // Several scrypt checks (login, reset, logins again): time for a loaded machine.
  }, 60_000);

  it("another admin's '2FA zurücksetzen' revokes them too; the mail names them", async () => {
    const keys = await withKeys("yara-revoke");
    await enrolTotp(keys);
    const helper = await insertAdmin("zoe-revoke");
    const cookie = await cookieOf(helper.username, helper.password);
    const res = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "reset-2fa",
        id: String(keys.admin.id),
        confirmed: "1",
        "stepUp.password": helper.password,
      }).toString(),
    });
    expect(res.status).toBe(302);
    await expectRevoked(keys);
    await server.drainOutbox();
    const mail = await inbox.waitFor(keys.admin.email, /Zwei-Faktor-Anmeldung wurde zurückgesetzt/);
    expectListedIn(mail.text, keys);
  });

  it("npm run admin:reset-2fa revokes them too", async () => {
    const keys = await withKeys("anton-revoke");
    await enrolTotp(keys);
    const run = await runScript(["scripts/admin-reset-2fa.ts", keys.admin.username]);
    expect(run.status).toBe(0);
    await expectRevoked(keys);
  }, 60_000); // a script run, a Node start (a loaded machine needs more than 20 s)
});

/** Adds a passkey through the API, as whoever holds a session of the admin could. */
async function addPasskey(session: string, password: string, name: string) {
  const key = new SoftAuthenticator("http://portal.test");
  const options = await post("/api/admin/account/passkeys/options", { name, password }, session);
  expect(options.status).toBe(200);
  const response = key.register((await options.json()).options);
  expect((await post("/api/admin/account/passkeys/verify", { response }, session)).status).toBe(
    201,
  );
  return key;
}

/** A passkey login without password (the passkey alone). */
async function passkeyLogin(key: SoftAuthenticator) {
  const options = await post("/api/admin/auth/passkey/options", {});
  return post("/api/admin/auth/passkey/verify", {
    response: key.assert((await options.json()).options),
  });
}

function passkeysOf(adminId: number) {
  const db = testDb();
  try {
    return db.prepare("SELECT name FROM passkeys WHERE admin_id = ?").all(adminId) as {
      name: string;
    }[];
  } finally {
    db.close();
  }
}

function removalsAudited(username: string) {
  const db = testDb();
  try {
    const rows = db
      .prepare("SELECT details FROM audit_log WHERE action = 'passkey-removed' AND target = ?")
      .all(username) as { details: string }[];
    return rows.map((r) => (JSON.parse(r.details) as { name: string }).name).sort();
  } finally {
    db.close();
  }
}

describe("a recovered account takes the intruder's passkeys away", () => {
  it("a password reset removes every passkey; the mail names them with their dates; the account page offers a new one", async () => {
    const admin = await insertAdmin("berta-passkey");
    const session = await apiLogin(server, admin.username, admin.password);
    const intruder = await addPasskey(session, admin.password, "Laptop des Eindringlings");
    const own = await addPasskey(session, admin.password, "Handy");
    const bystander = await insertAdmin("carl-passkey");
    const other = await addPasskey(
      await apiLogin(server, bystander.username, bystander.password),
      bystander.password,
      "Carls Handy",
    );
    expect((await passkeyLogin(intruder)).status).toBe(200);

    const asked = await post("/api/admin/auth/forgot-password", { email: admin.email });
    expect(asked.status).toBe(200);
    await server.drainOutbox();
    const resetMail = await inbox.waitFor(admin.email, /Passwort zurücksetzen/);
    const newPassword = "bertas-neues-passwort-1";
    const reset = await post("/api/admin/auth/reset-password", {
      token: linkToken(resetMail.text, "/admin/reset-password"),
      newPassword,
    });
    expect(reset.status).toBe(200);

    expect((await passkeyLogin(intruder)).status).toBe(401);
    expect((await passkeyLogin(own)).status).toBe(401);
    expect(passkeysOf(admin.id)).toEqual([]);
    expect(removalsAudited(admin.username)).toEqual(["Handy", "Laptop des Eindringlings"]);
    // Only passkeys, no API token: the mail still tells what was removed.
    await server.drainOutbox();
    const notice = await inbox.waitFor(admin.email, /Passwort wurde zurückgesetzt/);
    const today = formatDate(new Date());
    expect(notice.text).toContain(`„Laptop des Eindringlings“ (hinzugefügt am ${today})`);
    expect(notice.text).toContain(`„Handy“ (hinzugefügt am ${today})`);
    expect(notice.text).toContain("/admin/account#passkeys");
    // Another admin's passkey still works.
    expect((await passkeyLogin(other)).status).toBe(200);
    // The owner logs in with the new password alone and is offered a new passkey.
    const cookie = await cookieOf(admin.username, newPassword);
    const page = await server.fetch("/admin/account", { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Noch kein Passkey eingerichtet.");
    // The add form needs JavaScript (WebAuthn); without it the section says so.
    expect(html).toContain("Zum Hinzufügen eines Passkeys");
  }, 60_000);

  it("another admin's '2FA zurücksetzen' names the removed passkeys in the mail, each audited", async () => {
    const keys = await withKeys("dora-passkey");
    await enrolTotp(keys);
    const key = await addPasskey(keys.session, keys.admin.password, "Sicherheitsschlüssel");
    const helper = await insertAdmin("emil-passkey");
    const cookie = await cookieOf(helper.username, helper.password);
    const res = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "reset-2fa",
        id: String(keys.admin.id),
        confirmed: "1",
        "stepUp.password": helper.password,
      }).toString(),
    });
    expect(res.status).toBe(302);
    expect((await passkeyLogin(key)).status).toBe(401);
    expect(passkeysOf(keys.admin.id)).toEqual([]);
    expect(removalsAudited(keys.admin.username)).toEqual(["Sicherheitsschlüssel"]);
    await server.drainOutbox();
    const mail = await inbox.waitFor(keys.admin.email, /Zwei-Faktor-Anmeldung wurde zurückgesetzt/);
    expect(mail.text).toContain(
      `„Sicherheitsschlüssel“ (hinzugefügt am ${formatDate(new Date())})`,
    );
    expectListedIn(mail.text, keys);
  }, 60_000);
});
