import { generateSync } from "otplib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

// Sessions you can see and end, and scoped API tokens (ADR 260/261). The server runs in
// this process, so a fake clock (Date only) moves idle ends, expiries and the lastSeenAt throttle.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ APP_URL: "http://portal.test" });
});
afterAll(async () => {
  await server.close();
  delete process.env.APP_URL;
});
afterEach(() => {
  vi.useRealTimers();
});

const UA_FIREFOX =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";

async function loginAs(username: string, password: string, userAgent: string) {
  const res = await server.fetch("/api/admin/auth/login", {
    method: "POST",
    json: { username, password },
    headers: { "user-agent": userAgent },
  });
  expect(res.status).toBe(200);
  return (await res.json()).token as string;
}

const sessionsOf = async (token: string) => {
  const res = await server.fetch("/api/admin/account/sessions", { token });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as {
    id: string;
    createdAt: string;
    lastSeenAt: string;
    userAgent: string | null;
    network: string | null;
    current: boolean;
  }[];
};

const auditRows = (action: string) => {
  const db = testDb();
  try {
    return db
      .prepare("SELECT actor_name AS actor, target, details FROM audit_log WHERE action = ?")
      .all(action) as { actor: string; target: string; details: string | null }[];
  } finally {
    db.close();
  }
};

const verify = (token: string) => server.fetch("/api/admin/auth/verify", { token });

describe("sessions", () => {
  it("lists the admin's own sessions with id, times, User-Agent, network and the current one", async () => {
    const a = await insertAdmin("sitzungen");
    const first = await loginAs(a.username, a.password, UA_FIREFOX);
    const second = await loginAs(a.username, a.password, "curl/8.5.0");
    const other = await insertAdmin("fremd");
    await loginAs(other.username, other.password, "curl/8.5.0");
    const list = await sessionsOf(second);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ current: true, userAgent: "curl/8.5.0" });
    expect(list[1]).toMatchObject({ current: false, userAgent: UA_FIREFOX });
    for (const s of list) {
      expect(s.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(Date.parse(s.createdAt)).toBeGreaterThan(0);
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThan(0);
      // 127.0.0.1 masked to its /24: the address itself is never stored.
      expect(s.network).toBe("127.0.0.0/24");
    }
    expect(JSON.stringify(list)).not.toContain(first);
    const db = testDb();
    const stored = db.prepare("SELECT network FROM sessions WHERE admin_id = ?").all(a.id);
    db.close();
    expect(stored).toEqual([{ network: "127.0.0.0/24" }, { network: "127.0.0.0/24" }]);
  });

  it("DELETE ends another session at once, for Bearer and cookie; others' ids are 404", async () => {
    const a = await insertAdmin("abmelden");
    const keep = await loginAs(a.username, a.password, UA_FIREFOX);
    const doomed = await loginAs(a.username, a.password, "curl/8.5.0");
    const cookie = await server.adminCookie(a.username, a.password);
    expect(cookie).toMatch(/^__session=/);
    const page = () => server.fetch("/admin/account", { headers: { cookie } });
    expect((await page()).status).toBe(200);
    expect((await verify(doomed)).status).toBe(200);
    const list = await sessionsOf(keep);
    expect(list).toHaveLength(3);
    const target = list.find((s) => s.userAgent === "curl/8.5.0");
    const stranger = await insertAdmin("nachbar");
    const strangerToken = await apiLogin(server, stranger.username, stranger.password);
    const foreign = await server.fetch(`/api/admin/account/sessions/${target?.id}`, {
      method: "DELETE",
      token: strangerToken,
    });
    expect(foreign.status).toBe(404);
    expect((await verify(doomed)).status).toBe(200);
    const ended = await server.fetch(`/api/admin/account/sessions/${target?.id}`, {
      method: "DELETE",
      token: keep,
    });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toMatchObject({ success: true, current: false });
    expect((await verify(doomed)).status).toBe(401);
    expect((await verify(keep)).status).toBe(200);
    // The cookie session, ended through its id as well.
    const cookieSession = (await sessionsOf(keep)).find((s) => !s.current);
    const endCookie = await server.fetch(`/api/admin/account/sessions/${cookieSession?.id}`, {
      method: "DELETE",
      token: keep,
    });
    expect(endCookie.status).toBe(200);
    const after = await page();
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/admin\/login/);
    const again = await server.fetch(`/api/admin/account/sessions/${target?.id}`, {
      method: "DELETE",
      token: keep,
    });
    expect(again.status).toBe(404);
    expect(auditRows("session-ended").filter((r) => r.actor === a.username)).toHaveLength(2);
  });

  it("'Alle anderen abmelden' (the page's form) keeps only this session", async () => {
    const a = await insertAdmin("alle-anderen");
    const other1 = await loginAs(a.username, a.password, UA_FIREFOX);
    const other2 = await loginAs(a.username, a.password, "curl/8.5.0");
    const cookie = await server.adminCookie(a.username, a.password);
    const res = await server.fetch("/admin/account", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=sessions-end-others",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("2 andere Sitzungen wurden abgemeldet.");
    expect((await verify(other1)).status).toBe(401);
    expect((await verify(other2)).status).toBe(401);
    expect((await server.fetch("/admin/account", { headers: { cookie } })).status).toBe(200);
    expect(auditRows("session-ended").find((r) => r.actor === a.username)?.details).toBe(
      JSON.stringify({ anzahl: 2 }),
    );
  });

  it("ends after SESSION_IDLE_HOURS (12) without use, and 30 days after the login however active", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-05-01T08:00:00Z") });
    const a = await insertAdmin("leerlauf");
    const idle = await loginAs(a.username, a.password, "curl/8.5.0");
    const active = await loginAs(a.username, a.password, "curl/8.5.0");
    vi.setSystemTime(Date.now() + 11 * 3600_000 + 59 * 60_000);
    expect((await verify(idle)).status).toBe(200);
    expect((await verify(active)).status).toBe(200);
    vi.setSystemTime(Date.now() + 12 * 3600_000 + 60_000);
    expect((await verify(idle)).status).toBe(401);
    // Used every 11 hours: alive until the 30th day after the login, then over.
    const login = Date.parse("2030-05-01T08:00:00Z");
    const active2 = await loginAs(a.username, a.password, "curl/8.5.0");
    const start = Date.now();
    for (let t = start; t < start + 30 * 86_400_000 - 11 * 3600_000; t += 11 * 3600_000) {
      vi.setSystemTime(t);
      expect((await verify(active2)).status).toBe(200);
    }
    vi.setSystemTime(start + 30 * 86_400_000 + 1000);
    expect((await verify(active2)).status).toBe(401);
    expect(login).toBeLessThan(start);
  });

  it("writes lastSeenAt at most once a minute per session", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-06-01T08:00:00Z") });
    const a = await insertAdmin("zuletzt");
    const token = await loginAs(a.username, a.password, "curl/8.5.0");
    const lastSeen = () => {
      const db = testDb();
      const row = db.prepare("SELECT last_used_at AS t FROM sessions WHERE admin_id = ?").get(a.id);
      db.close();
      return (row as { t: number }).t;
    };
    const t0 = lastSeen();
    vi.setSystemTime(Date.now() + 30_000);
    await verify(token);
    await verify(token);
    expect(lastSeen()).toBe(t0);
    vi.setSystemTime(Date.now() + 31_000);
    await verify(token);
    expect(lastSeen()).toBe(Date.now());
  });

  it("never accepts a session token from the URL: GET /api/uploads/{filename}?token= → 401", async () => {
    const a = await insertAdmin("querytoken");
    const token = await apiLogin(server, a.username, a.password);
    expect((await verify(token)).status).toBe(200);
    const res = await server.fetch(`/api/uploads/datei.pdf?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatch(/Adresse/);
    // With the same token in the header: past authentication (the file does not exist).
    expect((await server.fetch("/api/uploads/datei.pdf", { token })).status).toBe(404);
  });
});

type Created = { id: number; token: string; name: string; scopes: string[] };

describe("API tokens", () => {
  async function setup(name: string) {
    const a = await insertAdmin(name);
    const session = await apiLogin(server, a.username, a.password);
    const create = (json: Record<string, unknown>) =>
      server.fetch("/api/admin/api-tokens", { method: "POST", token: session, json });
    return { ...a, session, create };
  }

  it("creates a token with the password: 201, shown once, stored as a hash, audited and mailed", async () => {
    const a = await setup("integrator");
    const res = await a.create({
      name: "n8n",
      scopes: ["requests:read"],
      password: a.password,
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    expect(body).toMatchObject({ name: "n8n", scopes: ["requests:read"] });
    expect(body.token).toMatch(/^apt_[A-Za-z0-9_-]{40,}$/);
    const db = testDb();
    const stored = db.prepare("SELECT token_hash FROM api_tokens WHERE id = ?").get(body.id) as {
      token_hash: string;
    };
    const mail = db
      .prepare(
        "SELECT subject, text FROM mail_outbox WHERE \"to\" = ? AND kind = 'api-token-notice'",
      )
      .get(a.email) as { subject: string; text: string } | undefined;
    db.close();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.token_hash).not.toContain(body.token);
    expect(mail?.subject).toBe("Neuer API-Zugang erstellt");
    expect(mail?.text).toContain("„n8n“");
    expect(mail?.text).not.toContain(body.token);
    expect(auditRows("api-token-created").find((r) => r.actor === a.username)?.target).toBe("n8n");

    const list = await server.fetch("/api/admin/api-tokens", { token: a.session });
    const tokens = await list.json();
    expect(tokens).toEqual([
      expect.objectContaining({ id: body.id, name: "n8n", lastUsedAt: null, revokedAt: null }),
    ]);
    expect(JSON.stringify(tokens)).not.toContain(body.token);
  });

  it("refuses without proof (400), with a wrong password (403), unknown scopes and empty names (400)", async () => {
    const a = await setup("beweis");
    expect((await a.create({ name: "x", scopes: ["requests:read"] })).status).toBe(400);
    const wrong = await a.create({ name: "x", scopes: ["requests:read"], password: "falsch" });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).error).toBe("Das Passwort ist falsch.");
    const unknown = await a.create({ name: "x", scopes: ["users:write"], password: a.password });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe("Unbekannte Berechtigung.");
    const empty = await a.create({ name: " ", scopes: [], password: a.password });
    expect(empty.status).toBe(400);
  });

  it("accepts a current 2FA code instead of the password (each code once)", async () => {
    const a = await setup("mit-code");
    const post = (path: string, json: unknown) =>
      server.fetch(path, { method: "POST", token: a.session, json });
    const { secret } = await (
      await post("/api/admin/account/2fa/setup", { password: a.password })
    ).json();
    const enabled = await post("/api/admin/account/2fa/enable", { code: generateSync({ secret }) });
    expect(enabled.status).toBe(200);
    // Enabling ends the other sessions, not this one. The enabling code is used up.
    const used = await a.create({
      name: "x",
      scopes: ["codes:read"],
      code: generateSync({ secret }),
    });
    expect(used.status).toBe(403);
    expect((await used.json()).error).toBe("Der Code ist ungültig oder wurde bereits verwendet.");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    const ok = await a.create({
      name: "CRM",
      scopes: ["codes:read"],
      code: generateSync({ secret, epoch: Math.floor(Date.now() / 1000) }),
    });
    expect(ok.status).toBe(201);
  });

  it("works only within its scopes: 403 outside them, 401 on pages, login, account and tokens", async () => {
    const a = await setup("leser");
    const { token } = (await (
      await a.create({ name: "Nur lesen", scopes: ["requests:read"], password: a.password })
    ).json()) as Created;
    expect((await server.fetch("/api/admin/requests", { token })).status).toBe(200);
    expect((await server.fetch("/api/requests", { token })).status).toBe(200);
    const write = await server.fetch("/api/admin/requests/1/assign", {
      method: "POST",
      token,
      json: {},
    });
    expect(write.status).toBe(403);
    expect((await write.json()).error).toBe(
      "Diesem API-Zugang fehlt die Berechtigung „requests:write“ für diesen Aufruf.",
    );
    for (const [method, path] of [
      ["GET", "/api/admin/auth/verify"],
      ["GET", "/api/admin/account"],
      ["GET", "/api/admin/account/sessions"],
      ["GET", "/api/admin/api-tokens"],
      ["POST", "/api/admin/api-tokens"],
      ["GET", "/api/admin/users"],
      ["GET", "/api/admin/requests/export.csv"],
      ["DELETE", "/api/requests/1"],
      ["PATCH", "/api/configuration"],
      ["GET", "/admin/dashboard"],
      ["GET", "/admin/requests"],
      ["POST", "/admin/account"],
    ] as const) {
      const res = await server.fetch(path, {
        method,
        token,
        ...(method === "GET"
          ? {}
          : path.startsWith("/api")
            ? { json: {} }
            : {
                body: "intent=x",
                headers: { "content-type": "application/x-www-form-urlencoded" },
              }),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    const lastUsed = (
      await (await server.fetch("/api/admin/api-tokens", { token: a.session })).json()
    )[0].lastUsedAt;
    expect(Date.parse(lastUsed)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a revoked token is refused at once; an expired one too", async () => {
    const a = await setup("widerruf");
    const created = (await (
      await a.create({
        name: "Alt",
        scopes: ["codes:read"],
        expiresInDays: 2,
        password: a.password,
      })
    ).json()) as Created;
    const codes = () => server.fetch("/api/affiliate-codes", { token: created.token });
    expect((await codes()).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 86_400_000 + 1000 });
    expect((await codes()).status).toBe(401);
    vi.useRealTimers();
    expect((await codes()).status).toBe(200);
    const foreign = await setup("fremder");
    expect(
      (
        await server.fetch(`/api/admin/api-tokens/${created.id}`, {
          method: "DELETE",
          token: foreign.session,
        })
      ).status,
    ).toBe(404);
    const revoked = await server.fetch(`/api/admin/api-tokens/${created.id}`, {
      method: "DELETE",
      token: a.session,
    });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).message).toBe("Der API-Zugang „Alt“ wurde widerrufen.");
    const refused = await codes();
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toBe(
      "Der API-Zugang ist ungültig, widerrufen oder abgelaufen.",
    );
    expect(auditRows("api-token-revoked").find((r) => r.actor === a.username)?.target).toBe("Alt");
    const list = await (await server.fetch("/api/admin/api-tokens", { token: a.session })).json();
    expect(list[0].revokedAt).toBeTruthy();
  });

  it("a session cannot guess the password without limit through the token's step-up check", async () => {
    const a = await setup("petra");
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await a.create({
        name: "n8n",
        scopes: ["requests:read"],
        password: `geraten-${i}`,
      });
      statuses.push(res.status);
    }
    // Like failed logins (10 per account in 15 minutes), wrong passwords here end in a 429.
    expect(statuses).toContain(429);
  });

  it("a requests:read token learns nothing about the admin accounts from /api/admin/stats", async () => {
    const a = await setup("statistik");
    const created = await a.create({
      name: "crm",
      scopes: ["requests:read"],
      password: a.password,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { token: apiToken } = (await created.json()) as { token: string };
    const res = await server.fetch("/api/admin/stats", { token: apiToken });
    expect(res.status).toBe(200);
    const { stats } = (await res.json()) as { stats: Record<string, unknown> };
    // "A token never reaches users": the user-management counts stay with sessions.
    expect(Object.keys(stats)).not.toContain("admins");
    expect(Object.keys(stats)).not.toContain("activeAdmins");
    expect(Object.keys(stats)).not.toContain("pendingInvitations");
  });
});
