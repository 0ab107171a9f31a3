import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, insertAdmin } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";
import { SoftAuthenticator } from "./soft-authenticator";

// The per-account login lock (ADR 263) stops guessing from everywhere, but anyone can set it off
// for any admin. A browser the admin logged in with before carries a signed device cookie
// (ADR 317): from there the lock never blocks the password, the code or the passkey; the
// per-client limits still hold. Strangers stay locked out.

const ORIGIN = "http://portal.test";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    APP_URL: ORIGIN,
    TRUST_PROXY: "fly",
    LOGIN_RATE_LIMIT: "5/15m",
  });
});
afterAll(async () => {
  await server.close();
  for (const key of ["APP_URL", "TRUST_PROXY", "LOGIN_RATE_LIMIT"]) delete process.env[key];
});

const apiPost = (path: string, ip: string, json: unknown, cookie?: string) =>
  server.fetch(path, {
    method: "POST",
    headers: { "fly-client-ip": ip, ...(cookie ? { cookie } : {}) },
    json,
  });
const login = (ip: string, username: string, password: string, cookie?: string) =>
  apiPost("/api/admin/auth/login", ip, { username, password }, cookie);

/** Logs in through the page from `ip`; returns the device cookie it set (`name=value`). */
async function deviceCookieOf(username: string, password: string, ip: string) {
  const res = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "fly-client-ip": ip, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__device="));
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  return (cookie ?? "").split(";")[0] as string;
}

/** One address in each of n different /56s. */
const across56 = (base: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${base}:${(i + 1).toString(16)}00::1`);

/** Ten failures from ten networks: the account is locked. */
async function lock(username: string, base: string) {
  for (const ip of across56(base, 10))
    expect((await login(ip, username, "falsch-falsch-falsch")).status).toBe(401);
  expect((await login(`${base}:ff00::1`, username, "falsch-falsch-falsch")).status).toBe(429);
}

// Up to 30 logins per test, each a scrypt hash: generous time on a loaded machine.
describe("a known device is not locked out by strangers", { timeout: 90_000 }, () => {
  it("the password logs in from the known device while strangers are locked out (also in parallel)", async () => {
    const erik = await insertAdmin("erik-device");
    const fiona = await insertAdmin("fiona-device");
    const erikDevice = await deviceCookieOf(erik.username, erik.password, "198.51.100.10");
    const fionaDevice = await deviceCookieOf(fiona.username, fiona.password, "198.51.100.11");
    await lock(erik.username, "2001:db8:7100");

    // The right password from a browser that never logged in as erik: still locked.
    expect((await login("198.51.100.20", erik.username, erik.password)).status).toBe(429);
    expect((await login("198.51.100.21", erik.username, erik.password, fionaDevice)).status).toBe(
      429,
    );
    expect(
      (await login("198.51.100.22", erik.username, erik.password, "__device=erfunden")).status,
    ).toBe(429);
    // From his own browser (wherever it is now): in, at once and in parallel.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        login(`198.51.100.${30 + i}`, erik.username, erik.password, erikDevice),
      ),
    );
    expect(parallel.map((r) => r.status)).toEqual(Array(6).fill(200));
    const strangers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        login(`198.51.100.${40 + i}`, erik.username, erik.password),
      ),
    );
    expect(strangers.map((r) => r.status)).toEqual(Array(6).fill(429));
    // The page login from the known device, too.
    const page = await server.fetch("/admin/login", {
      method: "POST",
      headers: {
        "fly-client-ip": "198.51.100.50",
        "content-type": "application/x-www-form-urlencoded",
        cookie: erikDevice,
      },
      body: new URLSearchParams({ username: erik.username, password: erik.password }).toString(),
    });
    expect(page.status).toBe(302);
    expect(page.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
  });

  it("a stolen device cookie guesses no faster: its own counter, exactly 10 in parallel", async () => {
    const jana = await insertAdmin("jana-device");
    const device = await deviceCookieOf(jana.username, jana.password, "198.51.100.90");
    const answers = await Promise.all(
      across56("2001:db8:7400", 12).map((ip) =>
        login(ip, jana.username, "falsch-falsch-falsch", device),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(10).fill(401), 429, 429]);
    expect((await login("198.51.100.91", jana.username, jana.password, device)).status).toBe(429);
    // The strangers' counter is untouched: the device's guesses lock no one else out.
    expect((await login("198.51.100.92", jana.username, jana.password)).status).toBe(200);
  });

  it("the per-client limit still holds on a known device", async () => {
    const gustav = await insertAdmin("gustav-device");
    const device = await deviceCookieOf(gustav.username, gustav.password, "198.51.100.60");
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push((await login("198.51.100.61", gustav.username, "falsch", device)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("the code step after the password works from the known device while locked", async () => {
    const hanna = await insertAdmin("hanna-device");
    const token = await apiLogin(server, hanna.username, hanna.password);
    const setup = await server.fetch("/api/admin/account/2fa/setup", {
      method: "POST",
      token,
      json: { password: hanna.password },
    });
    const { secret } = await setup.json();
    const enabled = await server.fetch("/api/admin/account/2fa/enable", {
      method: "POST",
      token,
      json: { code: generateSync({ secret, epoch: Math.floor(Date.now() / 1000) }) },
    });
    const recoveryCodes = (await enabled.json()).recoveryCodes as string[];
    // Her browser: password, then the code step of the page (a recovery code) sets the cookie.
    const form = (fields: Record<string, string>) =>
      server.fetch("/admin/login", {
        method: "POST",
        headers: {
          "fly-client-ip": "198.51.100.72",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields).toString(),
      });
    const step = await form({ username: hanna.username, password: hanna.password });
    const challenge = (await step.text()).match(/name="challenge" value="([^"]+)"/)?.[1];
    expect(challenge).toBeTruthy();
    const done = await form({
      intent: "code",
      challenge: challenge as string,
      code: recoveryCodes[0] as string,
    });
    expect(done.status).toBe(302);
    const device = (done.headers.getSetCookie().find((c) => c.startsWith("__device=")) ?? "").split(
      ";",
    )[0] as string;
    expect(device).toMatch(/^__device=./);

    await lock(hanna.username, "2001:db8:7200");
    expect((await login("198.51.100.73", hanna.username, hanna.password)).status).toBe(429);
    const password = await login("198.51.100.74", hanna.username, hanna.password, device);
    expect(password.status).toBe(200);
    const { challenge: next, mfaRequired } = await password.json();
    expect(mfaRequired).toBe(true);
    const verified = await apiPost(
      "/api/admin/auth/login/verify",
      "198.51.100.74",
      { challenge: next, recoveryCode: recoveryCodes[1] },
      device,
    );
    expect(verified.status).toBe(200);
    expect((await verified.json()).token).toBeTruthy();
  });

  it("a passkey logs in instead of the password from the known device while locked", async () => {
    const ivo = await insertAdmin("ivo-device");
    const device = await deviceCookieOf(ivo.username, ivo.password, "198.51.100.80");
    const token = await apiLogin(server, ivo.username, ivo.password);
    const key = new SoftAuthenticator(ORIGIN);
    const options = await server.fetch("/api/admin/account/passkeys/options", {
      method: "POST",
      token,
      json: { name: "Laptop", password: ivo.password },
    });
    const registered = await server.fetch("/api/admin/account/passkeys/verify", {
      method: "POST",
      token,
      json: { response: key.register((await options.json()).options) },
    });
    expect(registered.status).toBe(201);
    await lock(ivo.username, "2001:db8:7300");

    const passkeyLogin = async (ip: string, cookie?: string) => {
      const opts = await apiPost("/api/admin/auth/passkey/options", ip, {}, cookie);
      expect(opts.status).toBe(200);
      const { options: challenge } = await opts.json();
      return apiPost(
        "/api/admin/auth/passkey/verify",
        ip,
        { response: key.assert(challenge) },
        cookie,
      );
    };
    expect((await passkeyLogin("198.51.100.81")).status).toBe(429);
    const ok = await passkeyLogin("198.51.100.82", device);
    expect(ok.status).toBe(200);
    expect((await ok.json()).admin.username).toBe(ivo.username);
  });
});
