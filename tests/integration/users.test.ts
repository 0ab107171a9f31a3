import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, insertAdmin, startInbox, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startInbox>>;
let token: string;
let adminId: number;
beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ SMTP_URL: inbox.url });
  const login = await (
    await server.fetch("/api/admin/auth/login", {
      method: "POST",
      json: { username: "admin", password: "admin-passwort" },
    })
  ).json();
  token = login.token;
  adminId = login.admin.id;
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  delete process.env.SMTP_URL;
});

/** Power over another admin needs the step-up (ADR 315): the password goes along. */
const stepUp = { password: "admin-passwort" };

const toggle = (id: number, activate?: boolean, as = token) =>
  server.fetch(`/api/admin/users/${id}/toggle-status`, {
    method: "POST",
    token: as,
    json: activate === undefined ? { stepUp } : { activate, stepUp },
  });

describe("users", () => {
  it("lists admins in the spec's shape without secrets", async () => {
    const res = await server.fetch("/api/admin/users", { token });
    const body = await res.json();
    expect(body.success).toBe(true);
    const me = body.admins.find((a: { id: number }) => a.id === adminId);
    expect(Object.keys(me).sort()).toEqual(
      ["email", "id", "is_active", "last_login", "password_changed", "username"].sort(),
    );
    expect(me.last_login).not.toBeNull();
  });

  it("refuses to toggle or delete oneself", async () => {
    const t = await toggle(adminId, false);
    expect(t.status).toBe(400);
    expect((await t.json()).error).toBeTruthy();
    const d = await server.fetch(`/api/admin/users/${adminId}`, { method: "DELETE", token });
    expect(d.status).toBe(400);
  });

  it("deactivates another admin: its sessions end and it cannot log in; reactivation works", async () => {
    const other = await insertAdmin("gustav");
    const otherToken = await apiLogin(server, other.username, other.password);
    const off = await toggle(other.id, false);
    expect(off.status).toBe(200);
    expect((await off.json()).admin.is_active).toBe(false);
    expect((await server.fetch("/api/admin/auth/verify", { token: otherToken })).status).toBe(401);
    const login = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      json: { username: other.username, password: other.password },
    });
    expect(login.status).toBe(403);
    // Without `activate` the state flips.
    const on = await toggle(other.id);
    expect((await on.json()).admin.is_active).toBe(true);
    await apiLogin(server, other.username, other.password);
  });

  it("an inactive admin cannot log in (HTML form either)", async () => {
    const sleeper = await insertAdmin("heidi", { active: false });
    const res = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        username: sleeper.username,
        password: sleeper.password,
      }).toString(),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("delete transfers assignments and invitations to the acting admin and mails the deleted admin", async () => {
    const victim = await insertAdmin("ida");
    const db = testDb();
    const insertRequest = db.prepare(
      "INSERT INTO requests (name, email, phone, company_description) VALUES ('K', 'k@example.com', '+49 1', 'Eine Firma mit Beschreibung')",
    );
    const r1 = Number(insertRequest.run().lastInsertRowid);
    const r2 = Number(insertRequest.run().lastInsertRowid);
    db.prepare(
      "INSERT INTO request_assignees (request_id, admin_id) VALUES (?, ?), (?, ?), (?, ?)",
    ).run(r1, victim.id, r2, victim.id, r2, adminId);
    db.prepare(
      "INSERT INTO invitations (email, token_hash, invited_by, expires_at) VALUES ('neu@example.com', 'hash-ida', ?, ?)",
    ).run(victim.id, Date.now() + 86_400_000);
    db.close();

    const res = await server.fetch(`/api/admin/users/${victim.id}`, {
      method: "DELETE",
      token,
      json: { stepUp },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, transferredInvitations: 1 });

    const check = testDb();
    const assignees = check
      .prepare(
        "SELECT request_id, admin_id FROM request_assignees WHERE request_id IN (?, ?) ORDER BY request_id",
      )
      .all(r1, r2);
    const invitedBy = check
      .prepare("SELECT invited_by FROM invitations WHERE token_hash = 'hash-ida'")
      .get() as { invited_by: number };
    const gone = check.prepare("SELECT id FROM admins WHERE id = ?").get(victim.id);
    check.close();
    expect(assignees).toEqual([
      { request_id: r1, admin_id: adminId },
      { request_id: r2, admin_id: adminId },
    ]);
    expect(invitedBy.invited_by).toBe(adminId);
    expect(gone).toBeUndefined();
    const mail = await inbox.waitFor(victim.email, /entfernt/);
    expect(mail.text).toContain("admin");
  });

  it("never deactivates or deletes the last active admin", async () => {
    // Over HTTP the acting admin is always active, so this guard is checked on the rule itself:
    // an (inactive) actor against the only active admin.
    const { deleteAdmin, setAdminActive } = await import("~/server/accounts/admins.server");
    const db = testDb();
    db.prepare("UPDATE admins SET is_active = 0 WHERE id != ?").run(adminId);
    db.close();
    const actor = await insertAdmin("jonas", { active: false });
    expect(deleteAdmin(actor.id, adminId)).toMatchObject({ ok: false, status: 400 });
    expect(setAdminActive(actor.id, adminId, false)).toMatchObject({ ok: false, status: 400 });
    const still = await server.fetch("/api/admin/auth/verify", { token });
    expect(still.status).toBe(200);
  });

  it("answers 404 for unknown ids and 400 for a bad body", async () => {
    expect((await toggle(99999, true)).status).toBe(404);
    expect((await server.fetch("/api/admin/users/abc", { method: "DELETE", token })).status).toBe(
      404,
    );
    const bad = await server.fetch(`/api/admin/users/${adminId}/toggle-status`, {
      method: "POST",
      token,
      json: { activate: "ja" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("users page (no JS)", () => {
  it("asks for confirmation naming the remaining active admins before deleting", async () => {
    const cookie = (
      await server.fetch("/admin/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: "admin", password: "admin-passwort" }).toString(),
      })
    ).headers
      .get("set-cookie")
      ?.split(";")[0] as string;
    // The first admin chose its password through ADMIN_PASSWORD, so no change is pending.
    const keeper = await insertAdmin("karla");
    const victim = await insertAdmin("lars");
    const post = (fields: Record<string, string>) =>
      server.fetch("/admin/users", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const step = await post({ intent: "delete", id: String(victim.id) });
    expect(step.status).toBe(200);
    const html = await step.text();
    expect(html).toContain("Verbleibende aktive Admins:");
    expect(html).toContain(keeper.username);
    expect(html).toContain('name="confirmed" value="1"');
    const page = await (await server.fetch("/admin/users", { headers: { cookie } })).text();
    expect(page).toContain(victim.username);
    // Confirmed, the step-up follows (ADR 315), keeping the confirmation.
    const proof = await post({ intent: "delete", id: String(victim.id), confirmed: "1" });
    expect(proof.status).toBe(200);
    expect(await proof.text()).toContain('name="stepUp.password"');
    const done = await post({
      intent: "delete",
      id: String(victim.id),
      confirmed: "1",
      "stepUp.password": "admin-passwort",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin/users");
    expect(done.headers.get("set-cookie")).toContain("__flash=");
    const after = await (await server.fetch("/admin/users", { headers: { cookie } })).text();
    expect(after).not.toContain(`>${victim.username}<`);
    expect(after).toContain("Nie");
  });
});
