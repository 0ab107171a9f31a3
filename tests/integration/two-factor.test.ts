import { spawnSync } from "node:child_process";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

// The TOTP second factor (ADR 256). The server runs in this process, so a fake clock
// (Date only) moves its TOTP window, challenge expiry and limits; codes are computed here from the
// secret the setup call returned.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ APP_URL: "http://portal.test" });
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-03-04T10:00:05Z") });
});
afterAll(async () => {
  vi.useRealTimers();
  await server.close();
  delete process.env.APP_URL;
});

/** Moves the fake clock on (one TOTP step is 30 s). */
const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
const totp = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });

const post = (path: string, json: unknown, token?: string) =>
  server.fetch(path, { method: "POST", json, token });

/** Enrols an admin through the API; returns the secret and the recovery codes. */
async function enrol(token: string, password: string) {
  const setup = await post("/api/admin/account/2fa/setup", { password }, token);
  expect(setup.status).toBe(200);
  const { secret, otpauthUrl } = await setup.json();
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  expect(otpauthUrl).toContain(`secret=${secret}`);
  const enabled = await post("/api/admin/account/2fa/enable", { code: totp(secret) }, token);
  expect(enabled.status).toBe(200);
  const { recoveryCodes } = await enabled.json();
  return { secret: secret as string, recoveryCodes: recoveryCodes as string[] };
}

async function challengeFor(username: string, password: string) {
  const res = await post("/api/admin/auth/login", { username, password });
  expect(res.status).toBe(200);
  expect(res.headers.get("set-cookie")).toBeNull();
  const body = await res.json();
  expect(body).toMatchObject({ success: false, mfaRequired: true });
  expect(body.token).toBeUndefined();
  return body.challenge as string;
}

const auditActions = (action: string) => {
  const db = testDb();
  try {
    return db
      .prepare("SELECT actor_name AS actor, target FROM audit_log WHERE action = ? ORDER BY id")
      .all(action) as { actor: string; target: string }[];
  } finally {
    db.close();
  }
};

describe("enrolment and login with a code", () => {
  let anna: Awaited<ReturnType<typeof insertAdmin>>;
  let token: string;
  let secret: string;
  let recoveryCodes: string[];

  it("sets up with the password, keeps the secret sealed, and enables with a code", async () => {
    anna = await insertAdmin("anna");
    token = await apiLogin(server, anna.username, anna.password);
    const wrong = await post("/api/admin/account/2fa/setup", { password: "falsch" }, token);
    expect(wrong.status).toBe(403);
    const setup = await post("/api/admin/account/2fa/setup", { password: anna.password }, token);
    ({ secret } = await setup.json());
    const db = testDb();
    const stored = db.prepare("SELECT totp_secret FROM admins WHERE id = ?").get(anna.id) as {
      totp_secret: string;
    };
    db.close();
    expect(stored.totp_secret).toMatch(/^enc:v1:/);
    expect(stored.totp_secret).not.toContain(secret);
    const badCode = await post("/api/admin/account/2fa/enable", { code: "000000" }, token);
    expect(badCode.status).toBe(400);
    const enabled = await post("/api/admin/account/2fa/enable", { code: totp(secret) }, token);
    expect(enabled.status).toBe(200);
    ({ recoveryCodes } = await enabled.json());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(auditActions("2fa-enabled").map((a) => a.target)).toContain("anna");
    // Stored hashed: no code appears in the table.
    const db2 = testDb();
    const hashes = db2.prepare("SELECT code_hash FROM recovery_codes").all() as {
      code_hash: string;
    }[];
    db2.close();
    for (const code of recoveryCodes) {
      expect(hashes.some((h) => h.code_hash.includes(code.replace(/-/g, "")))).toBe(false);
    }
  });

  it("answers 409 to a second setup while 2FA is on", async () => {
    const again = await post("/api/admin/account/2fa/setup", { password: anna.password }, token);
    expect(again.status).toBe(409);
  });

  it("the password alone opens nothing: a challenge, no token, no cookie", async () => {
    const challenge = await challengeFor("anna", anna.password);
    const asBearer = await server.fetch("/api/admin/auth/verify", { token: challenge });
    expect(asBearer.status).toBe(401);
  });

  it("refuses the code already used at enrolment, accepts the next step's code, once", async () => {
    const challenge = await challengeFor("anna", anna.password);
    const replayed = await post("/api/admin/auth/login/verify", { challenge, code: totp(secret) });
    expect(replayed.status).toBe(401);
    advance(30);
    const code = totp(secret);
    const ok = await post("/api/admin/auth/login/verify", { challenge, code });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({ success: true, admin: { username: "anna" } });
    expect((await server.fetch("/api/admin/account", { token: body.token })).status).toBe(200);
    // The same code again, with a new challenge: refused (each code works once).
    const next = await challengeFor("anna", anna.password);
    const again = await post("/api/admin/auth/login/verify", { challenge: next, code });
    expect(again.status).toBe(401);
    // The used challenge is gone.
    advance(30);
    const reused = await post("/api/admin/auth/login/verify", { challenge, code: totp(secret) });
    expect(reused.status).toBe(401);
    expect((await reused.json()).error).toContain("abgelaufen");
  });

  it("refuses an expired challenge (5 minutes)", async () => {
    const challenge = await challengeFor("anna", anna.password);
    advance(5 * 60 + 1);
    const late = await post("/api/admin/auth/login/verify", { challenge, code: totp(secret) });
    expect(late.status).toBe(401);
  });

  it("a recovery code works once (audited)", async () => {
    const challenge = await challengeFor("anna", anna.password);
    const first = recoveryCodes[0] as string;
    const ok = await post("/api/admin/auth/login/verify", {
      challenge,
      recoveryCode: first.toUpperCase(),
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).token).toBeTruthy();
    expect(auditActions("recovery-code-used").map((a) => a.actor)).toContain("anna");
    const next = await challengeFor("anna", anna.password);
    const again = await post("/api/admin/auth/login/verify", {
      challenge: next,
      recoveryCode: first,
    });
    expect(again.status).toBe(401);
  });

  it("regenerates recovery codes with the password (old ones die, mailed)", async () => {
    const wrong = await post("/api/admin/account/2fa/recovery-codes", { password: "x" }, token);
    expect(wrong.status).toBe(403);
    const res = await post(
      "/api/admin/account/2fa/recovery-codes",
      { password: anna.password },
      token,
    );
    expect(res.status).toBe(200);
    const fresh = (await res.json()).recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    const challenge = await challengeFor("anna", anna.password);
    const old = await post("/api/admin/auth/login/verify", {
      challenge,
      recoveryCode: recoveryCodes[1],
    });
    expect(old.status).toBe(401);
    const ok = await post("/api/admin/auth/login/verify", { challenge, recoveryCode: fresh[0] });
    expect(ok.status).toBe(200);
    recoveryCodes = fresh.slice(1);
    expect(auditActions("recovery-codes-regenerated")).toHaveLength(1);
  });

  it("disables with password and code only", async () => {
    advance(30);
    const noPassword = await post(
      "/api/admin/account/2fa/disable",
      { password: "falsch", code: totp(secret) },
      token,
    );
    expect(noPassword.status).toBe(403);
    const noCode = await post(
      "/api/admin/account/2fa/disable",
      { password: anna.password, code: "123456" },
      token,
    );
    expect(noCode.status).toBe(400);
    const missing = await post(
      "/api/admin/account/2fa/disable",
      { password: anna.password },
      token,
    );
    expect(missing.status).toBe(400);
    const off = await post(
      "/api/admin/account/2fa/disable",
      { password: anna.password, code: totp(secret) },
      token,
    );
    expect(off.status).toBe(200);
    expect(auditActions("2fa-disabled").map((a) => a.target)).toContain("anna");
    // The password alone logs in again.
    expect(await apiLogin(server, "anna", anna.password)).toBeTruthy();
  });
});

describe("wrong codes", () => {
  it("the 6th code within 15 minutes answers 429 with Retry-After", async () => {
    const berta = await insertAdmin("berta");
    const token = await apiLogin(server, berta.username, berta.password);
    const { secret } = await enrol(token, berta.password);
    advance(30);
    const challenge = await challengeFor("berta", berta.password);
    for (let i = 0; i < 5; i++) {
      const wrong = await post("/api/admin/auth/login/verify", { challenge, code: "999999" });
      expect(wrong.status).toBe(401);
    }
    const locked = await post("/api/admin/auth/login/verify", { challenge, code: totp(secret) });
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await locked.json()).error).toMatch(/Zu viele Versuche/);
    // A new challenge does not lift the lock.
    const fresh = await challengeFor("berta", berta.password);
    const still = await post("/api/admin/auth/login/verify", {
      challenge: fresh,
      code: totp(secret),
    });
    expect(still.status).toBe(429);
  });

  it("a session cannot guess the code without limit either (2FA disable takes password and code)", async () => {
    const quinn = await insertAdmin("quinn");
    const token = await apiLogin(server, quinn.username, quinn.password);
    await enrol(token, quinn.password);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await post(
        "/api/admin/account/2fa/disable",
        { password: quinn.password, code: String(100000 + i) },
        token,
      );
      statuses.push(res.status);
    }
    // The login's code step answers 429 after 5 wrong codes; the same secret here must too.
    expect(statuses).toContain(429);
  });
});

describe("2FA required for all admins", () => {
  let chef: { token: string; password: string; secret: string };

  beforeAll(async () => {
    const c = await insertAdmin("chef");
    const token = await apiLogin(server, c.username, c.password);
    const { secret } = await enrol(token, c.password);
    chef = { token, password: c.password, secret };
    // Changing the rule needs the step-up (ADR 315).
    const on = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { security: { requireTwoFactor: true }, stepUp: { password: c.password } },
    });
    expect(on.status).toBe(200);
    expect((await on.json()).configuration.security).toEqual({ requireTwoFactor: true });
  });
  afterAll(async () => {
    advance(30);
    const challenge = await challengeFor("chef", chef.password);
    const ok = await post("/api/admin/auth/login/verify", { challenge, code: totp(chef.secret) });
    const { token } = await ok.json();
    const off = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { security: { requireTwoFactor: false }, stepUp: { password: chef.password } },
    });
    expect(off.status).toBe(200);
  });

  it("logs an admin without 2FA in, flagged, and refuses every other call until enrolment", async () => {
    const dora = await insertAdmin("dora");
    const res = await post("/api/admin/auth/login", {
      username: "dora",
      password: dora.password,
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      admin: { username: "dora", mfaEnrollmentRequired: true },
    });
    const token = body.token as string;
    const refused = await server.fetch("/api/admin/requests", { token });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(
      "Bitte richten Sie zuerst die Zwei-Faktor-Anmeldung ein, bevor Sie weitere Aktionen ausführen.",
    );
    expect((await server.fetch("/api/admin/users", { token })).status).toBe(403);
    expect((await server.fetch("/api/admin/auth/verify", { token })).status).toBe(200);
    await enrol(token, dora.password);
    expect((await server.fetch("/api/admin/requests", { token })).status).toBe(200);
  });

  it("leads the page login to the enrolment, and every page there until done", async () => {
    const emil = await insertAdmin("emil");
    const cookie = await server.adminCookie("emil", emil.password);
    const login = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "emil", password: emil.password }).toString(),
    });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/admin/account#sicherheit");
    const dashboard = await server.fetch("/admin/requests", { headers: { cookie } });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toBe("/admin/account#sicherheit");
    const account = await server.fetch("/admin/account", { headers: { cookie } });
    expect(account.status).toBe(200);
    const html = await account.text();
    expect(html).toContain("Für alle Admins ist die Zwei-Faktor-Anmeldung vorgeschrieben.");
  });

  it("a session that owes enrolment cannot switch the requirement off for everyone", async () => {
    // A stolen password of an admin without 2FA: the login leads to the enrolment only.
    const mallory = await insertAdmin("mallory");
    const cookie = await server.adminCookie("mallory", mallory.password);
    expect((await server.fetch("/admin/requests", { headers: { cookie } })).status).toBe(302);
    // ... but the account page's form action would take every intent, also the rule for all.
    await server.fetch("/admin/account", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "2fa-require" }).toString(),
    });
    const nora = await insertAdmin("nora");
    const login = await post("/api/admin/auth/login", {
      username: "nora",
      password: nora.password,
    });
    expect((await login.json()).admin).toMatchObject({ mfaEnrollmentRequired: true });
    // and mallory herself is through to the leads without ever enrolling
    expect((await server.fetch("/admin/requests", { headers: { cookie } })).status).toBe(302);
  });
});

describe("lost phone", () => {
  it("another admin resets it on the users page (audited, mailed)", async () => {
    const fritz = await insertAdmin("fritz");
    const token = await apiLogin(server, fritz.username, fritz.password);
    await enrol(token, fritz.password);
    await server.adminToken();
    const cookie = await server.adminCookie();
    const res = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      // Confirmed, with the step-up of the acting admin (ADR 315).
      body: new URLSearchParams({
        intent: "reset-2fa",
        id: String(fritz.id),
        confirmed: "1",
        "stepUp.password": "admin-passwort",
      }),
    });
    expect(res.status).toBe(302);
    expect(auditActions("2fa-reset")).toContainEqual({ actor: "admin", target: "fritz" });
    // Their sessions ended; the password alone logs in now.
    expect((await server.fetch("/api/admin/auth/verify", { token })).status).toBe(401);
    expect(await apiLogin(server, "fritz", fritz.password)).toBeTruthy();
    const db = testDb();
    const mail = db
      .prepare("SELECT subject FROM mail_outbox WHERE \"to\" = ? AND kind = 'two-factor-notice'")
      .all(fritz.email);
    db.close();
    expect(mail).toContainEqual({ subject: "Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt" });
  });

  it("npm run admin:reset-2fa resets it on the command line (audited as Kommandozeile)", async () => {
    const greta = await insertAdmin("greta");
    const token = await apiLogin(server, greta.username, greta.password);
    await enrol(token, greta.password);
    const run = spawnSync(process.execPath, ["scripts/admin-reset-2fa.ts", "greta"], {
      env: { ...process.env, APP_URL: "http://portal.test" },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Zwei-Faktor-Anmeldung für greta zurückgesetzt");
    expect(auditActions("2fa-reset")).toContainEqual({ actor: "Kommandozeile", target: "greta" });
    expect(await apiLogin(server, "greta", greta.password)).toBeTruthy();
    const unknown = spawnSync(process.execPath, ["scripts/admin-reset-2fa.ts", "niemand"], {
      encoding: "utf8",
    });
    expect(unknown.status).toBe(1);
  });
});
