import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";
import { SoftAuthenticator } from "./soft-authenticator";

// The anonymous passkey login's challenges (ADR 317): signed and short-lived instead of stored, so
// no number of clients can fill a global store and lock everyone out; each still works once and
// for 5 minutes; the options stay limited per client (30 in 5 minutes). The server runs in this
// process: a fake clock (Date only) moves the 5 minutes.

const ORIGIN = "http://portal.test";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ APP_URL: ORIGIN, TRUST_PROXY: "fly" });
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-07-01T09:00:00Z") });
});
afterAll(async () => {
  vi.useRealTimers();
  await server.close();
  delete process.env.APP_URL;
  delete process.env.TRUST_PROXY;
});

const post = (path: string, json: unknown, ip = "198.51.100.7", token?: string) =>
  server.fetch(path, { method: "POST", json, token, headers: { "fly-client-ip": ip } });

const options = async (ip = "198.51.100.7") => {
  const res = await post("/api/admin/auth/passkey/options", {}, ip);
  expect(res.status).toBe(200);
  return (await res.json()).options as { challenge: string };
};
const verify = (response: unknown, ip = "198.51.100.7") =>
  post("/api/admin/auth/passkey/verify", { response }, ip);

const storedChallenges = () => {
  const db = testDb();
  try {
    return (
      db.prepare("SELECT count(*) AS n FROM passkey_challenges WHERE purpose = 'login'").get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
};

let key: SoftAuthenticator;
/** A synced passkey's authenticator: its signature counter stays 0. */
let zeroKey: SoftAuthenticator;
beforeAll(async () => {
  const admin = await insertAdmin("petra-challenge");
  const token = await apiLogin(server, admin.username, admin.password);
  key = new SoftAuthenticator(ORIGIN);
  zeroKey = new SoftAuthenticator(ORIGIN);
  for (const [name, authenticator] of [
    ["Laptop", key],
    ["Telefon", zeroKey],
  ] as const) {
    const res = await post(
      "/api/admin/account/passkeys/options",
      { name, password: admin.password },
      undefined,
      token,
    );
    expect(res.status).toBe(200);
    const registered = await post(
      "/api/admin/account/passkeys/verify",
      { response: authenticator.register((await res.json()).options) },
      undefined,
      token,
    );
    expect(registered.status).toBe(201);
  }
});

// Over a thousand calls in the first test: generous time on a loaded machine.
describe("anonymous passkey challenges", { timeout: 120_000 }, () => {
  it("35 clients asking 30 times each lock nobody out; nothing is stored for them", async () => {
    for (let client = 1; client <= 35; client++) {
      // 35 clients in 35 networks: one network's clients share five clients' worth (ADR 357).
      const ip = `198.18.${client}.1`;
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => post("/api/admin/auth/passkey/options", {}, ip)),
      );
      expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    }
    expect(storedChallenges()).toBe(0);
    // A client that just arrives still logs in with its passkey.
    const fresh = await options("192.0.2.200");
    const ok = await verify(key.assert(fresh), "192.0.2.200");
    expect(ok.status).toBe(200);
    expect((await ok.json()).admin.username).toBe("petra-challenge");
  });

  it("limits one client to 30 options in 5 minutes, also in parallel", async () => {
    const ip = "192.0.2.31";
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => post("/api/admin/auth/passkey/options", {}, ip)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(answers.find((a) => a.status === 429)?.headers.get("retry-after")).toBeTruthy();
  });

  it("a challenge works once, even for an authenticator whose counter stays 0 and in parallel", async () => {
    const zero = () => {
      zeroKey.counter = -1;
      return zeroKey;
    };
    const challenge = await options("192.0.2.40");
    const answers = await Promise.all([
      verify(zero().assert(challenge), "192.0.2.40"),
      verify(zero().assert(challenge), "192.0.2.41"),
      verify(zero().assert(challenge), "192.0.2.42"),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
    const again = await verify(zero().assert(challenge), "192.0.2.43");
    expect(again.status).toBe(401);
    // A fresh challenge works for the same authenticator.
    expect((await verify(zero().assert(await options("192.0.2.44")), "192.0.2.44")).status).toBe(
      200,
    );
  });

  it("refuses a challenge older than 5 minutes and one the server did not sign", async () => {
    const old = await options("192.0.2.50");
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1000);
    expect((await verify(key.assert(old), "192.0.2.50")).status).toBe(401);

    const real = await options("192.0.2.51");
    const bytes = Buffer.from(real.challenge, "base64url");
    bytes[0] = (bytes[0] as number) ^ 0xff;
    const forged = { challenge: bytes.toString("base64url") };
    expect((await verify(key.assert(forged), "192.0.2.51")).status).toBe(401);
    const made = { challenge: Buffer.alloc(40, 7).toString("base64url") };
    expect((await verify(key.assert(made), "192.0.2.52")).status).toBe(401);
    // The untouched one still works.
    expect((await verify(key.assert(real), "192.0.2.51")).status).toBe(200);
  });
});
