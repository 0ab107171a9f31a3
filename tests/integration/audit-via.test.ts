import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

// Every admin action in the audit log says how it was done (ADR 319): in a session, with API token
// #id, or on the command line — and the actions that went unrecorded (affiliate codes, archive,
// preparation edits, deleting an appointment over the API) are recorded. The page and its CSV show
// the way as "Über".

let server: TestServer;
let session: string;
let token: string;
let tokenId: number;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer({ APP_URL: "http://portal.test" });
  const admin = await insertAdmin("vera-audit");
  session = await apiLogin(server, admin.username, admin.password);
  const created = await server.fetch("/api/admin/api-tokens", {
    method: "POST",
    token: session,
    json: {
      name: "CRM",
      scopes: ["requests:read", "requests:write", "appointments:write", "codes:write"],
      password: admin.password,
    },
  });
  expect(created.status).toBe(201);
  ({ token, id: tokenId } = await created.json());
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
  });
  cookie = (login.headers.getSetCookie().find((c) => c.startsWith("__session=")) ?? "").split(
    ";",
  )[0] as string;
});
afterAll(async () => {
  await server.close();
  delete process.env.APP_URL;
});

type Entry = { action: string; actor_name: string; target: string; via: string | null };
const last = (action: string): Entry | undefined => {
  const db = testDb();
  try {
    return db
      .prepare(
        "SELECT action, actor_name, target, via FROM audit_log WHERE action = ? ORDER BY id DESC LIMIT 1",
      )
      .get(action) as Entry | undefined;
  } finally {
    db.close();
  }
};

function insertRequest() {
  const db = testDb();
  try {
    return Number(
      db
        .prepare(
          "INSERT INTO requests (name, email, phone, company_description) VALUES ('K', 'k@example.com', '+49 1', 'Eine Firma mit Beschreibung')",
        )
        .run().lastInsertRowid,
    );
  } finally {
    db.close();
  }
}

describe("who did it, and how", () => {
  it("affiliate codes: created, changed and deleted — with the token's id or the session", async () => {
    const created = await server.fetch("/api/admin/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "Partnerin", email: "partnerin@example.com", discountValue: 10 },
    });
    expect(created.status).toBe(201);
    const { affiliateCode } = await created.json();
    expect(last("affiliate-code-created")).toEqual({
      action: "affiliate-code-created",
      actor_name: "vera-audit",
      target: `Affiliate-Code ${affiliateCode.code}`,
      via: `token:${tokenId}`,
    });
    const changed = await server.fetch(`/api/admin/affiliate-codes/${affiliateCode.id}`, {
      method: "PATCH",
      token: session,
      json: { isActive: false },
    });
    expect(changed.status).toBe(200);
    expect(last("affiliate-code-changed")).toMatchObject({ via: "session" });
    const deleted = await server.fetch(`/api/admin/affiliate-codes/${affiliateCode.id}`, {
      method: "DELETE",
      token,
    });
    expect(deleted.status).toBe(200);
    expect(last("affiliate-code-deleted")).toMatchObject({
      target: `Affiliate-Code ${affiliateCode.code}`,
      via: `token:${tokenId}`,
    });
  });

  it("archive and preparation edits of a request, by token", async () => {
    const id = insertRequest();
    const archived = await server.fetch(`/api/admin/requests/${id}/archive`, {
      method: "PATCH",
      token,
      json: { archived: true },
    });
    expect(archived.status).toBe(200);
    expect(last("archive")).toMatchObject({
      target: `Anfrage #${String(id).padStart(4, "0")}`,
      via: `token:${tokenId}`,
    });
    const edited = await server.fetch(`/api/admin/requests/${id}`, {
      method: "PATCH",
      token,
      json: { preparationData: { ziel: "Eine App" } },
    });
    expect(edited.status).toBe(200);
    expect(last("preparation-edited")).toMatchObject({ via: `token:${tokenId}` });
    // A status change by token names it too.
    const status = await server.fetch(`/api/admin/requests/${id}`, {
      method: "PATCH",
      token,
      json: { status: "In Progress" },
    });
    expect(status.status).toBe(200);
    expect(last("status")).toMatchObject({ via: `token:${tokenId}` });
  });

  it("deleting an appointment over the API", async () => {
    const db = testDb();
    const id = Number(
      db
        .prepare(
          "INSERT INTO appointments (provider, external_uid, event_type_key, event_type_name, start_time, status) VALUES ('builtin', 'uid-audit-1', 'demo', 'Demo', ?, 'ACCEPTED')",
        )
        .run(Date.now() + 86_400_000).lastInsertRowid,
    );
    db.close();
    const res = await server.fetch(`/api/admin/appointments/${id}`, { method: "DELETE", token });
    expect(res.status).toBe(200);
    expect(last("appointment-deleted")).toMatchObject({
      target: `Termin ${id}`,
      via: `token:${tokenId}`,
    });
  });

  it("a page action is a session's; the command line is the command line's", async () => {
    const invited = await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "invite", email: "neu-audit@example.com" }).toString(),
    });
    expect(invited.status).toBe(200);
    expect(last("invitation-sent")).toMatchObject({ actor_name: "vera-audit", via: "session" });
    const run = spawnSync(process.execPath, ["scripts/admin-reset-password.ts", "vera-audit"], {
      env: { ...process.env },
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(last("password-reset-link")).toMatchObject({
      actor_name: "Kommandozeile",
      via: "cli",
    });
  });

  it("the audit page and its CSV show the way", async () => {
    const page = await (
      await server.fetch("/admin/audit?action=affiliate-code-created", { headers: { cookie } })
    ).text();
    expect(page).toContain("Über");
    expect(page).toContain(`API-Zugang #${tokenId}`);
    const sessionPage = await (
      await server.fetch("/admin/audit?action=invitation-sent", { headers: { cookie } })
    ).text();
    expect(sessionPage).toContain("Sitzung");
    const csv = await (
      await server.fetch("/admin/audit.csv?action=affiliate-code-deleted", { headers: { cookie } })
    ).text();
    const [header, row] = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toBe("Zeitpunkt (UTC);Wer;Über;Aktion;Ziel;Details");
    expect(row).toContain(`;vera-audit;API-Zugang #${tokenId};Affiliate-Code gelöscht;`);
  });
});
