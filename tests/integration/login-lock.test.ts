// ADRs 254, 263: failed logins are limited per client (IPv6 by its /56) AND per account from any
// address: 10 failures in 15 minutes lock the name for 15 minutes (an unknown name the same way, the
// same answer), at most one mail per lock with a reset link, a completed reset lifts the lock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAdmin, linkToken, startInbox, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
const ENV = {
  SMTP_URL: "",
  APP_URL: "http://portal.test",
  LOGIN_RATE_LIMIT: "5/15m",
  TRUST_PROXY: "fly",
};
beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ ...ENV, SMTP_URL: inbox.url });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  for (const key of Object.keys(ENV)) delete process.env[key];
});

const login = (ip: string, username: string, password: string) =>
  server.fetch("/api/admin/auth/login", {
    method: "POST",
    headers: { "fly-client-ip": ip },
    json: { username, password },
  });
/** Twelve addresses of one /64. */
const of64 = (prefix: string) => Array.from({ length: 12 }, (_, i) => `${prefix}::${i + 1}`);
/** One address in each of n different /56s. */
const across56 = (base: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${base}:${(i + 1).toString(16)}00::1`);

async function statuses(ips: string[], username: string, password: string) {
  const list: number[] = [];
  for (const ip of ips) list.push((await login(ip, username, password)).status);
  return list;
}

const lockMails = (email: string) =>
  inbox.mails.filter((m) => m.to.includes(email) && /gesperrt/.test(m.subject));

// Up to 17 logins per test, each a scrypt hash: generous time on a loaded machine.
describe("failed logins per account, from any address", { timeout: 90_000 }, () => {
  it("twelve addresses of one /64 are one client: 5 failures, then 429", async () => {
    const anna = await insertAdmin("anna-lock64");
    const answers = await statuses(of64("2001:db8:64:1"), anna.username, "falsch-falsch");
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  });

  it("ten failures from ten /56s lock the account; the right password waits too; one mail", async () => {
    const bert = await insertAdmin("bert-lock56");
    const ips = across56("2001:db8:5600", 12);
    const failures = await statuses(ips.slice(0, 10), bert.username, "falsch-falsch");
    expect(failures).toEqual(Array(10).fill(401));
    const locked = await login(ips[10] as string, bert.username, bert.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    const body = await locked.json();
    expect(body.error).toContain("Zu viele Versuche");
    expect((await login(ips[11] as string, bert.username, "falsch-falsch")).status).toBe(429);
    // Another account from the same addresses is not affected.
    const other = await insertAdmin("bert-nachbar");
    expect((await login(ips[10] as string, other.username, other.password)).status).toBe(200);

    await inbox.waitFor(bert.email, /gesperrt/);
    await server.drainOutbox();
    const mails = lockMails(bert.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("http://portal.test/admin/reset-password?token=");
    // Audited: each failure (the network, never the address) and the lock.
    const audit = testDb()
      .prepare("SELECT action, actor_name, details FROM audit_log WHERE target = ? ORDER BY id")
      .all(bert.username) as { action: string; actor_name: string; details: string }[];
    expect(audit.filter((a) => a.action === "login-failed")).toHaveLength(10);
    expect(audit.filter((a) => a.action === "login-locked")).toHaveLength(1);
    expect(audit[0]?.actor_name).toBe("Unbekannt");
    expect(audit[0]?.details).toContain("2001:db8:5600::/48");
    expect(audit.map((a) => a.details).join()).not.toContain("::1");

    // The mailed reset link lifts the lock at once, from any address.
    const token = linkToken(mails[0]?.text ?? "", "/admin/reset-password");
    const reset = await server.fetch("/api/admin/auth/reset-password", {
      method: "POST",
      headers: { "fly-client-ip": "198.51.100.77" },
      json: { token, newPassword: "Wolke-Lampe-Fahrrad-91" },
    });
    expect(reset.status).toBe(200);
    expect((await login(ips[11] as string, bert.username, "Wolke-Lampe-Fahrrad-91")).status).toBe(
      200,
    );
  });

  it("an unknown name is counted the same way and answered the same way", async () => {
    const ips = across56("2001:db8:5700", 11);
    const known = await insertAdmin("clara-lock");
    const unknown = "niemand-hier";
    const a = await statuses(ips.slice(0, 10), known.username, "falsch-falsch");
    const b = await statuses(ips.slice(0, 10), unknown, "falsch-falsch");
    expect(b).toEqual(a);
    const lockedKnown = await login(ips[10] as string, known.username, "falsch-falsch");
    const lockedUnknown = await login(ips[10] as string, unknown, "falsch-falsch");
    expect(lockedUnknown.status).toBe(lockedKnown.status);
    expect(lockedUnknown.status).toBe(429);
    const [x, y] = [await lockedKnown.json(), await lockedUnknown.json()];
    expect(y).toEqual(x);
    // The typed unknown name is never written to the audit log.
    const rows = testDb()
      .prepare("SELECT count(*) AS n FROM audit_log WHERE target LIKE ? OR details LIKE ?")
      .get(`%${unknown}%`, `%${unknown}%`) as { n: number };
    expect(rows.n).toBe(0);
  });

  it("refused attempts during the lock send no further mail", async () => {
    const dora = await insertAdmin("dora-lock");
    const ips = across56("2001:db8:5800", 11);
    await statuses(ips.slice(0, 10), dora.username, "falsch-falsch");
    // More refused attempts during the lock send no further mail.
    await statuses(ips.slice(0, 5), dora.username, "falsch-falsch");
    await inbox.waitFor(dora.email, /gesperrt/);
    await server.drainOutbox();
    expect(lockMails(dora.email)).toHaveLength(1);
  });
});
