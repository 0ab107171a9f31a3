import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";
import { SoftAuthenticator } from "./soft-authenticator";

// Passkeys (ADR 280): registration and login with a software authenticator
// (ES256 from node:crypto), RP ID = APP_URL's hostname, origin = its origin. Replayed challenges
// and assertions, a foreign origin, a removed passkey and API tokens are refused.

const ORIGIN = "http://portal.test";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ APP_URL: ORIGIN });
});
afterAll(async () => {
  await server.close();
  delete process.env.APP_URL;
});

const post = (path: string, json: unknown, token?: string) =>
  server.fetch(path, { method: "POST", json, token });

const audited = (action: string, target: string) =>
  testDb()
    .prepare("SELECT details FROM audit_log WHERE action = ? AND target = ? ORDER BY id")
    .all(action, target) as { details: string | null }[];

const mails = (to: string, subject: string) =>
  testDb().prepare(`SELECT id FROM mail_outbox WHERE "to" = ? AND subject = ?`).all(to, subject);

/** Registers a passkey for the admin behind `token` through the API. */
async function register(token: string, password: string, key: SoftAuthenticator, name: string) {
  const options = await post("/api/admin/account/passkeys/options", { name, password }, token);
  expect(options.status).toBe(200);
  const body = await options.json();
  expect(body.options.rp).toEqual({ id: "portal.test", name: "Anfrage-Portal" });
  expect(body.options.authenticatorSelection.residentKey).toBe("required");
  const response = key.register(body.options);
  const saved = await post("/api/admin/account/passkeys/verify", { response }, token);
  return { saved, response };
}

/** Password step → challenge (no session), as the code step needs it. */
async function passwordStep(username: string, password: string) {
  const res = await post("/api/admin/auth/login", { username, password });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ success: false, mfaRequired: true });
  expect(body.token).toBeUndefined();
  return body as { challenge: string; methods: string[] };
}

async function loginOptions(challenge?: string) {
  const res = await post("/api/admin/auth/passkey/options", challenge ? { challenge } : {});
  expect(res.status).toBe(200);
  return (await res.json()).options as {
    challenge: string;
    rpId: string;
    allowCredentials?: { id: string }[];
    userVerification: string;
  };
}

describe("passkeys", () => {
  let petra: Awaited<ReturnType<typeof insertAdmin>>;
  let token: string;
  const laptop = new SoftAuthenticator(ORIGIN);

  it("registers after the password; the challenge works once; audited and mailed", async () => {
    petra = await insertAdmin("petra-passkey", { passwordChanged: true });
    token = await apiLogin(server, petra.username, petra.password);
    const noProof = await post("/api/admin/account/passkeys/options", { name: "Laptop" }, token);
    expect(noProof.status).toBe(400);
    const wrong = await post(
      "/api/admin/account/passkeys/options",
      { name: "Laptop", password: "falsch" },
      token,
    );
    expect(wrong.status).toBe(403);

    const { saved, response } = await register(token, petra.password, laptop, "Laptop");
    expect(saved.status).toBe(201);
    const body = await saved.json();
    expect(body.passkey).toMatchObject({ name: "Laptop", lastUsedAt: null });
    expect(body.message).toBe("Der Passkey „Laptop“ wurde hinzugefügt.");
    // The same answer again: its challenge is used up.
    const replay = await post("/api/admin/account/passkeys/verify", { response }, token);
    expect(replay.status).toBe(400);

    const list = await server.fetch("/api/admin/account/passkeys", { token });
    const listed = await list.json();
    expect(listed.passkeys.map((p: { name: string }) => p.name)).toEqual(["Laptop"]);
    expect(listed.passkeyLogin).toBe(true);
    expect(audited("passkey-added", petra.username)).toHaveLength(1);
    expect(mails(petra.email, "Neuer Passkey für Ihr Konto")).toHaveLength(1);
  });

  it("refuses a registration signed for another origin", async () => {
    const options = await post(
      "/api/admin/account/passkeys/options",
      { name: "Fremd", password: petra.password },
      token,
    );
    const foreign = new SoftAuthenticator(ORIGIN);
    const response = foreign.register((await options.json()).options, {
      origin: "http://evil.test",
    });
    const saved = await post("/api/admin/account/passkeys/verify", { response }, token);
    expect(saved.status).toBe(400);
  });

  it("is the second step after the password; a replayed assertion is refused", async () => {
    const step = await passwordStep(petra.username, petra.password);
    expect(step.methods).toEqual(["passkey"]);
    const options = await loginOptions(step.challenge);
    expect(options.rpId).toBe("portal.test");
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([laptop.id]);
    const response = laptop.assert(options);
    const ok = await post("/api/admin/auth/passkey/verify", {
      challenge: step.challenge,
      response,
    });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({ success: true, admin: { username: petra.username }, notices: [] });
    expect(typeof body.token).toBe("string");
    const replay = await post("/api/admin/auth/passkey/verify", {
      challenge: step.challenge,
      response,
    });
    expect(replay.status).toBe(401);
    const logins = audited("login", petra.username);
    expect(JSON.parse(logins.at(-1)?.details ?? "{}")).toEqual({ passkey: true });
  });

  it("replaces password and code (usernameless) unless the admin switches it off", async () => {
    const options = await loginOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe("required");
    const ok = await post("/api/admin/auth/passkey/verify", { response: laptop.assert(options) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).admin.username).toBe(petra.username);

    const off = await server.fetch("/api/admin/account/passkeys", {
      method: "PATCH",
      token,
      json: { passkeyLogin: false },
    });
    expect(off.status).toBe(200);
    const again = await loginOptions();
    const refused = await post("/api/admin/auth/passkey/verify", {
      response: laptop.assert(again),
    });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toContain("nur mit Passwort und Passkey");
    await server.fetch("/api/admin/account/passkeys", {
      method: "PATCH",
      token,
      json: { passkeyLogin: true },
    });
  });

  it("refuses a wrong origin, a counter that does not grow, and a user not verified", async () => {
    const a = await loginOptions();
    const foreign = laptop.assert(a, { origin: "http://evil.test" });
    expect((await post("/api/admin/auth/passkey/verify", { response: foreign })).status).toBe(401);

    const b = await loginOptions();
    laptop.counter -= 3;
    const stale = laptop.assert(b);
    expect((await post("/api/admin/auth/passkey/verify", { response: stale })).status).toBe(401);
    laptop.counter += 10;

    const c = await loginOptions();
    const unverified = laptop.assert(c, { userVerified: false });
    expect((await post("/api/admin/auth/passkey/verify", { response: unverified })).status).toBe(
      401,
    );
  });

  it("removes with the password (audited, mailed); the removed passkey opens nothing", async () => {
    const id = (await (await server.fetch("/api/admin/account/passkeys", { token })).json())
      .passkeys[0].id;
    const noProof = await server.fetch(`/api/admin/account/passkeys/${id}`, {
      method: "DELETE",
      token,
      json: {},
    });
    expect(noProof.status).toBe(400);
    const removed = await server.fetch(`/api/admin/account/passkeys/${id}`, {
      method: "DELETE",
      token,
      json: { password: petra.password },
    });
    expect(removed.status).toBe(200);
    expect(audited("passkey-removed", petra.username)).toHaveLength(1);
    expect(mails(petra.email, "Passkey entfernt")).toHaveLength(1);

    const options = await loginOptions();
    const res = await post("/api/admin/auth/passkey/verify", { response: laptop.assert(options) });
    expect(res.status).toBe(401);
    // Without a passkey (and TOTP) the password alone logs in again.
    const login = await post("/api/admin/auth/login", {
      username: petra.username,
      password: petra.password,
    });
    expect((await login.json()).success).toBe(true);
  });

  it("counts failed passkey steps like wrong codes: the 6th answers 429", async () => {
    const ute = await insertAdmin("ute-passkey", { passwordChanged: true });
    const uteToken = await apiLogin(server, ute.username, ute.password);
    const key = new SoftAuthenticator(ORIGIN);
    expect((await register(uteToken, ute.password, key, "Stick")).saved.status).toBe(201);
    const step = await passwordStep(ute.username, ute.password);
    for (let i = 0; i < 5; i++) {
      const options = await loginOptions(step.challenge);
      const bad = key.assert(options, { origin: "http://evil.test" });
      const res = await post("/api/admin/auth/passkey/verify", {
        challenge: step.challenge,
        response: bad,
      });
      expect(res.status).toBe(401);
    }
    const options = await loginOptions(step.challenge);
    const limited = await post("/api/admin/auth/passkey/verify", {
      challenge: step.challenge,
      response: key.assert(options),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("passkeys and the 2FA rule, and API tokens", () => {
  it("a passkey satisfies 'Zwei-Faktor-Anmeldung für alle Admins verlangen'", async () => {
    const chef = await insertAdmin("chef-passkey", { passwordChanged: true });
    const chefToken = await apiLogin(server, chef.username, chef.password);
    const key = new SoftAuthenticator(ORIGIN);
    expect((await register(chefToken, chef.password, key, "Telefon")).saved.status).toBe(201);
    // Changing the rule needs the step-up (ADR 315).
    const on = await server.fetch("/api/configuration", {
      method: "PATCH",
      token: chefToken,
      json: { security: { requireTwoFactor: true }, stepUp: { password: chef.password } },
    });
    expect(on.status).toBe(200);
    try {
      // Someone without a second factor must enrol: a passkey is one way (allowed while pending).
      const neu = await insertAdmin("neu-passkey", { passwordChanged: true });
      const res = await post("/api/admin/auth/login", {
        username: neu.username,
        password: neu.password,
      });
      const body = await res.json();
      expect(body.admin.mfaEnrollmentRequired).toBe(true);
      const blocked = await server.fetch("/api/admin/account/passkeys", { token: body.token });
      expect(blocked.status).toBe(403);
      const own = new SoftAuthenticator(ORIGIN);
      expect((await register(body.token, neu.password, own, "Laptop")).saved.status).toBe(201);
      const now = await server.fetch("/api/admin/account/passkeys", { token: body.token });
      expect(now.status).toBe(200);
      // The chef (passkey only) logs in with password + passkey and owes nothing.
      const step = await passwordStep(chef.username, chef.password);
      const options = await loginOptions(step.challenge);
      const ok = await post("/api/admin/auth/passkey/verify", {
        challenge: step.challenge,
        response: key.assert(options),
      });
      expect((await ok.json()).admin.mfaEnrollmentRequired).toBe(false);
    } finally {
      await server.fetch("/api/configuration", {
        method: "PATCH",
        token: chefToken,
        json: { security: { requireTwoFactor: false }, stepUp: { password: chef.password } },
      });
    }
  });

  it("an API token never reaches the passkey calls, whatever its scopes", async () => {
    const tom = await insertAdmin("tom-passkey", { passwordChanged: true });
    const session = await apiLogin(server, tom.username, tom.password);
    const created = await post(
      "/api/admin/api-tokens",
      {
        name: "CRM",
        scopes: ["requests:read", "requests:write", "appointments:read", "codes:read"],
        password: tom.password,
      },
      session,
    );
    expect(created.status).toBe(201);
    const { token } = await created.json();
    const calls: [string, string, unknown][] = [
      ["GET", "/api/admin/account/passkeys", undefined],
      ["PATCH", "/api/admin/account/passkeys", { passkeyLogin: false }],
      ["POST", "/api/admin/account/passkeys/options", { name: "x", password: tom.password }],
      ["POST", "/api/admin/account/passkeys/verify", { response: {} }],
      ["DELETE", "/api/admin/account/passkeys/1", { password: tom.password }],
      ["POST", "/api/admin/auth/passkey/options", {}],
      ["POST", "/api/admin/auth/passkey/verify", { response: {} }],
    ];
    for (const [method, path, json] of calls) {
      const res = await server.fetch(path, { method, token, json });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("a lost phone: another admin's '2FA zurücksetzen' removes the passkeys too", async () => {
    const lena = await insertAdmin("lena-passkey", { passwordChanged: true });
    const session = await apiLogin(server, lena.username, lena.password);
    const key = new SoftAuthenticator(ORIGIN);
    expect((await register(session, lena.password, key, "Telefon")).saved.status).toBe(201);
    await server.adminToken();
    const cookie = await server.adminCookie();
    const res = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      // Confirmed, with the acting admin's step-up (ADR 315).
      body: new URLSearchParams({
        intent: "reset-2fa",
        id: String(lena.id),
        confirmed: "1",
        "stepUp.password": "admin-passwort",
      }),
    });
    expect(res.status).toBe(302);
    expect(audited("2fa-reset", lena.username)).toHaveLength(1);
    const login = await post("/api/admin/auth/login", {
      username: lena.username,
      password: lena.password,
    });
    expect((await login.json()).success).toBe(true);
    const options = await loginOptions();
    const refused = await post("/api/admin/auth/passkey/verify", { response: key.assert(options) });
    expect(refused.status).toBe(401);
  });
});

// Runs last: it uses up this client's budget for login options.
describe("passkey login options", () => {
  it("POST /api/admin/auth/passkey/options is rate limited per client (no unbounded challenge rows)", async () => {
    const count = () => {
      const db = testDb();
      try {
        return (db.prepare("SELECT count(*) AS n FROM passkey_challenges").get() as { n: number })
          .n;
      } finally {
        db.close();
      }
    };
    const before = count();
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await post("/api/admin/auth/passkey/options", {});
      statuses.push(res.status);
      if (res.status === 429 && !refused) refused = res;
      else await res.body?.cancel();
    }
    // The refusal says when to come back, in German.
    if (!refused) throw new Error("no 429");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Zu viele Versuche/);
    // An anonymous client must not write to the database as fast as it can send.
    expect(statuses).toContain(429);
    expect(count() - before).toBeLessThan(200);
  });
});
