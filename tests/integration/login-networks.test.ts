// Network counters beside the client's for the admin's doors and the code check (ADR 322): an
// IPv6 /48 is 256 clients of /56, so failed logins (password and passkey alone), "Passwort
// vergessen", the passkey login options, the reset page's strength check and the affiliate-code
// check also count per /48 — and per IPv4 /24 — with five clients' worth each. Successful logins
// count nothing; neighbours in another network are not affected; the counters survive a restart.
// Every limit is tested with parallel requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "~/server/platform/crypto.server";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";
import { SoftAuthenticator } from "./soft-authenticator";

const ORIGIN = "http://portal.test";
const LIMITS = {
  LOGIN_RATE_LIMIT: "2/15m",
  LOGIN_NETWORK_RATE_LIMIT: "5/15m",
  TRUST_PROXY: "fly",
  APP_URL: ORIGIN,
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(LIMITS);
});
afterAll(async () => {
  await server.close();
  for (const key of Object.keys(LIMITS)) delete process.env[key];
});

const from = (ip: string) => ({ "fly-client-ip": ip });
const login = (ip: string, username: string, password: string) =>
  server.fetch("/api/admin/auth/login", {
    method: "POST",
    headers: from(ip),
    json: { username, password },
  });
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
/** One address in each of n different /56 of the /48 `base` (e.g. "2001:db8:a"). */
const across56 = (base: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${base}:${(i + 1).toString(16)}00::1`);

/** A refused answer: 429, a wait in seconds and the German message ("Sie" or "du"). */
async function expectRefused(res: Response, audience: "admin" | "visitor", field = "error") {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  const pattern =
    audience === "admin"
      ? /^Zu viele Versuche\. Bitte warten Sie \d+ Minuten?/
      : /^Zu viele Versuche\. Bitte warte \d+ Minuten?/;
  expect((await res.json())[field]).toMatch(pattern);
}

/** n requests from each address at once; their statuses, and the responses. */
async function burst(ips: string[], n: number, send: (ip: string, i: number) => Promise<Response>) {
  const answers = await Promise.all(
    ips.flatMap((ip, j) => Array.from({ length: n }, (_, i) => send(ip, j * n + i))),
  );
  return { statuses: answers.map((r) => r.status), answers };
}

describe("failed logins count per network beside the client", () => {
  it("four /56 of one /48 share 5 failures, sent at once; then even the right password waits; another /48 logs in", async () => {
    const admin = await insertAdmin("netz-anna");
    const { statuses, answers } = await burst(across56("2001:db8:a", 4), 2, (ip, i) =>
      login(ip, `niemand-${i}`, "falsch"),
    );
    expect(count(statuses, 401)).toBe(5);
    expect(count(statuses, 429)).toBe(3);
    await expectRefused(answers.find((r) => r.status === 429) as Response, "admin");
    // A fifth /56 of the same /48 has used none of its own 2: the network holds it.
    await expectRefused(await login("2001:db8:a:500::1", admin.username, admin.password), "admin");
    // The neighbouring /48 is not affected.
    expect((await login("2001:db8:b:100::1", admin.username, admin.password)).status).toBe(200);
  });

  it("IPv4: neighbours in one /24 each keep their own 2; together at most 5", async () => {
    const { statuses } = await burst(["192.0.2.1", "192.0.2.2", "192.0.2.3"], 2, (ip, i) =>
      login(ip, `niemand-v4-${i}`, "falsch"),
    );
    // None of them reached its own limit of 2: only the /24's 5 refused the sixth.
    expect(count(statuses, 401)).toBe(5);
    expect(count(statuses, 429)).toBe(1);
    const admin = await insertAdmin("netz-bert");
    expect((await login("198.51.100.9", admin.username, admin.password)).status).toBe(200);
  });

  it("a successful login gives its network point back: an office logs in as often as it likes", async () => {
    const admin = await insertAdmin("netz-carla");
    for (const ip of [...across56("2001:db8:c", 4), ...across56("2001:db8:c", 4)])
      expect((await login(ip, admin.username, admin.password)).status).toBe(200);
    // All 5 failures of the network are still there.
    const { statuses } = await burst(across56("2001:db8:c", 3), 2, (ip, i) =>
      login(ip, `niemand-c-${i}`, "falsch"),
    );
    expect(count(statuses, 401)).toBe(5);
    expect(count(statuses, 429)).toBe(1);
  });

  it("a passkey login without password counts on the same network counter", async () => {
    const admin = await insertAdmin("netz-dora");
    const token = await apiLogin(server, admin.username, admin.password);
    const key = new SoftAuthenticator(ORIGIN);
    const options = await server.fetch("/api/admin/account/passkeys/options", {
      method: "POST",
      token,
      json: { name: "Laptop", password: admin.password },
    });
    expect(options.status).toBe(200);
    const saved = await server.fetch("/api/admin/account/passkeys/verify", {
      method: "POST",
      token,
      json: { response: key.register((await options.json()).options) },
    });
    expect(saved.status).toBe(201);
    const { statuses } = await burst(across56("2001:db8:d", 3), 2, (ip, i) =>
      login(ip, `niemand-d-${i}`, "falsch"),
    );
    expect(count(statuses, 401)).toBe(5);
    const passkeyLogin = async (ip: string) => {
      const res = await server.fetch("/api/admin/auth/passkey/options", {
        method: "POST",
        headers: from("198.51.100.20"),
        json: {},
      });
      const { options } = await res.json();
      return server.fetch("/api/admin/auth/passkey/verify", {
        method: "POST",
        headers: from(ip),
        json: { response: key.assert(options) },
      });
    };
    await expectRefused(await passkeyLogin("2001:db8:d:700::1"), "admin");
    expect((await passkeyLogin("2001:db8:e:100::1")).status).toBe(200);
  });

  it("a browser that logged in as this admin before is not held by its network's counter", async () => {
    const admin = await insertAdmin("netz-gerd");
    const page = await server.fetch("/admin/login", {
      method: "POST",
      headers: {
        ...from("2001:db8:26:100::1"),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
    });
    expect(page.status).toBe(302);
    const device = (page.headers.getSetCookie().find((c) => c.startsWith("__device=")) ?? "").split(
      ";",
    )[0] as string;
    expect(device).toMatch(/^__device=./);
    const { statuses } = await burst(across56("2001:db8:26", 3), 2, (ip, i) =>
      login(ip, `niemand-g-${i}`, "falsch"),
    );
    expect(count(statuses, 429)).toBe(1);
    // The right password from a stranger's browser in that /48 waits; from the admin's own, in.
    await expectRefused(await login("2001:db8:26:700::1", admin.username, admin.password), "admin");
    const own = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      headers: { ...from("2001:db8:26:800::1"), cookie: device },
      json: { username: admin.username, password: admin.password },
    });
    expect(own.status).toBe(200);
  });

  it("'Passwort vergessen' counts on the network too", async () => {
    const { statuses, answers } = await burst(across56("2001:db8:f", 4), 2, (ip, i) =>
      server.fetch("/api/admin/auth/forgot-password", {
        method: "POST",
        headers: from(ip),
        json: { email: `vergessen-${i}@example.com` },
      }),
    );
    expect(count(statuses, 200)).toBe(5);
    expect(count(statuses, 429)).toBe(3);
    await expectRefused(answers.find((r) => r.status === 429) as Response, "admin");
  });

  it("after a restart the /48 is still held", async () => {
    await server.close();
    server = await startTestServer(LIMITS);
    const admin = await insertAdmin("netz-emil");
    await expectRefused(await login("2001:db8:a:600::1", admin.username, admin.password), "admin");
    expect((await login("2001:db8:1a:100::1", admin.username, admin.password)).status).toBe(200);
  });
});

describe("the checks limited per client count per network too: five clients' worth", () => {
  it("passkey login options: six /56 of one /48, 30 each at once: 150 answered", async () => {
    const { statuses, answers } = await burst(across56("2001:db8:20", 6), 30, (ip) =>
      server.fetch("/api/admin/auth/passkey/options", {
        method: "POST",
        headers: from(ip),
        json: {},
      }),
    );
    expect(count(statuses, 200)).toBe(150);
    expect(count(statuses, 429)).toBe(30);
    await expectRefused(answers.find((r) => r.status === 429) as Response, "admin");
    const other = await server.fetch("/api/admin/auth/passkey/options", {
      method: "POST",
      headers: from("2001:db8:21:100::1"),
      json: {},
    });
    expect(other.status).toBe(200);
  });

  it("affiliate-code checks: six /56 of one /48, 30 each at once: 150 answered", async () => {
    const check = (ip: string, i: number) =>
      server.fetch(`/api/affiliate-codes/validate/NETZ${i}`, { headers: from(ip) });
    const { statuses, answers } = await burst(across56("2001:db8:22", 6), 30, check);
    expect(count(statuses, 200)).toBe(150);
    expect(count(statuses, 429)).toBe(30);
    await expectRefused(answers.find((r) => r.status === 429) as Response, "visitor", "message");
    expect((await check("2001:db8:23:100::1", 0)).status).toBe(200);
  });

  it("the reset page's strength check: six /56 of one /48, 60 each at once: 300 answered", async () => {
    const admin = await insertAdmin("netz-frieda");
    const token = `netz-reset-${Date.now()}`;
    const db = testDb();
    try {
      db.prepare(
        "INSERT INTO password_resets (admin_id, token_hash, expires_at) VALUES (?, ?, ?)",
      ).run(admin.id, hashToken(token), Date.now() + 3_600_000);
    } finally {
      db.close();
    }
    const rate = (ip: string, i: number) =>
      server.fetch("/admin/reset-password", {
        method: "POST",
        headers: { ...from(ip), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          intent: "strength",
          token,
          newPassword: `kandidat-${i}-lang-genug`,
        }).toString(),
      });
    const { statuses, answers } = await burst(across56("2001:db8:24", 6), 60, rate);
    expect(count(statuses, 200)).toBe(300);
    expect(count(statuses, 429)).toBe(60);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await rate("2001:db8:25:100::1", 0)).status).toBe(200);
    // 360 page answers, each with zxcvbn: time for a loaded machine.
  }, 120_000);
});
