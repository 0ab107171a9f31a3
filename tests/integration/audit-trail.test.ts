// ADR 262: a complete audit trail (settings, webhooks, invitations, accounts, passwords,
// downloads, the CSV of the log) and the webhook findings of the security review (a new URL needs a
// new secret and drops what was queued for the old one; credential URLs sealed at rest).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solvedAltcha } from "../altcha-solution";
import { insertAdmin, testDb } from "./auth-helpers";
import { multipart, pdfBytes, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let admin: { id: number; username: string; password: string };
beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "100/1h" });
  admin = await insertAdmin("revisor", { passwordChanged: true });
  token = await server.adminToken(admin.username, admin.password);
});
afterAll(async () => {
  await server.close();
  delete process.env.SUBMISSION_RATE_LIMIT;
});

type Entry = {
  action: string;
  actor_id: number | null;
  actor_name: string;
  target: string;
  details: string | null;
};
function entries(action: string): Entry[] {
  const db = testDb();
  try {
    return db
      .prepare(
        "SELECT action, actor_id, actor_name, target, details FROM audit_log WHERE action = ? ORDER BY id",
      )
      .all(action) as Entry[];
  } finally {
    db.close();
  }
}
function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}

const SECRET = "geheim-0123456789-abcdef";
const OTHER_SECRET = "anderes-geheimnis-987654";
const patch = (json: unknown) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json });

describe("settings and webhooks", () => {
  it("a settings save names the changed sections and keys, never a value", async () => {
    const res = await patch({ emailNotifications: { externalEmails: ["geheim@example.com"] } });
    expect(res.status).toBe(200);
    const [entry] = entries("settings").slice(-1);
    expect(entry?.actor_id).toBe(admin.id);
    expect(entry?.target).toBe("emailNotifications");
    expect(JSON.parse(entry?.details ?? "{}")).toEqual({
      bereiche: ["emailNotifications"],
      schluessel: ["emailNotifications.externalEmails"],
    });
    expect(JSON.stringify(entries("settings"))).not.toContain("geheim@");
    // An unchanged save leaves nothing.
    const before = entries("settings").length;
    expect(
      (await patch({ emailNotifications: { externalEmails: ["geheim@example.com"] } })).status,
    ).toBe(200);
    expect(entries("settings")).toHaveLength(before);
  });

  it("webhooks: added, changed and removed with their host; a new URL needs a new secret", async () => {
    const hook = {
      id: "crm",
      url: "http://127.0.0.1:9/crm",
      events: ["request.created"],
      secret: SECRET,
      format: "json",
    };
    expect((await patch({ webhooks: [hook] })).status).toBe(200);
    expect(entries("webhook-added").at(-1)).toMatchObject({
      target: "127.0.0.1:9",
      actor_id: admin.id,
    });

    // Something is queued for the old receiver.
    const created = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ altcha: await solvedAltcha(server.url) })),
    });
    expect(created.status).toBe(201);
    expect(
      sql("SELECT id FROM webhook_deliveries WHERE endpoint_id = 'crm' AND status = 'pending'"),
    ).toHaveLength(1);

    // The URL changes, the secret stays (omitted or masked): refused at the secret.
    const moved = { ...hook, url: "http://127.0.0.2:9/crm" };
    for (const secret of [undefined, "••••••••cdef", SECRET]) {
      const refused = await patch({ webhooks: [{ ...moved, secret }] });
      expect(refused.status).toBe(400);
      expect((await refused.json()).fieldErrors["webhooks.0.secret"][0]).toContain("neues Secret");
    }
    expect(sql("SELECT id FROM webhook_deliveries WHERE endpoint_id = 'crm'")).toHaveLength(1);

    // With a new secret: saved, the delivery queued for the old URL is dropped, audited.
    expect((await patch({ webhooks: [{ ...moved, secret: OTHER_SECRET }] })).status).toBe(200);
    expect(sql("SELECT id FROM webhook_deliveries WHERE endpoint_id = 'crm'")).toHaveLength(0);
    const changed = entries("webhook-changed").at(-1);
    expect(changed?.target).toBe("127.0.0.2:9");
    expect(JSON.parse(changed?.details ?? "{}")).toEqual({
      id: "crm",
      geaendert: ["url", "secret"],
      vorherigerHost: "127.0.0.1:9",
    });
    expect(JSON.stringify(entries("webhook-changed"))).not.toContain(OTHER_SECRET);

    expect((await patch({ webhooks: [] })).status).toBe(200);
    expect(entries("webhook-removed").at(-1)).toMatchObject({ target: "127.0.0.2:9" });
  });

  it("credential URLs (Slack, ?token=) are sealed at rest and masked like secrets", async () => {
    const webhooks = [
      {
        id: "slack",
        url: "http://127.0.0.1:9/services/T000/B000/XYZsecret",
        events: ["request.created"],
        secret: SECRET,
        format: "slack",
      },
      {
        id: "tok",
        url: "http://127.0.0.1:9/hook?token=s3cr3t-t0ken",
        events: ["request.created"],
        secret: SECRET,
        format: "json",
      },
    ];
    expect((await patch({ webhooks })).status).toBe(200);
    const stored =
      sql<{ data: string }>("SELECT data FROM configuration WHERE id = 1")[0]?.data ?? "";
    expect(stored).not.toContain("XYZsecret");
    expect(stored).not.toContain("s3cr3t-t0ken");
    const list = JSON.parse(stored).webhooks as { url: string }[];
    expect(list.map((w) => w.url.slice(0, 7))).toEqual(["enc:v1:", "enc:v1:"]);
    const got = await (await server.fetch("/api/configuration", { token })).json();
    expect(JSON.stringify(got)).not.toContain("XYZsecret");
    expect(JSON.stringify(got)).not.toContain("s3cr3t-t0ken");
    // Sent back masked, they keep the stored URLs (and need no new secret).
    expect((await patch({ webhooks: got.webhooks })).status).toBe(200);
    expect(entries("webhook-changed").filter((e) => e.details?.includes('"slack"'))).toHaveLength(
      0,
    );
    // A queued delivery does not keep the URL readable either.
    await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ altcha: await solvedAltcha(server.url) })),
    });
    const urls = sql<{ url: string }>(
      "SELECT url FROM webhook_deliveries WHERE endpoint_id IN ('slack', 'tok')",
    );
    expect(urls).toHaveLength(2);
    expect(JSON.stringify(urls)).not.toMatch(/XYZsecret|s3cr3t-t0ken/);
    expect((await patch({ webhooks: [] })).status).toBe(200);
  });
});

describe("accounts, invitations, passwords, downloads", () => {
  it("invitation sent, resent, revoked; account activated, deactivated, deleted", async () => {
    const invited = await server.fetch("/api/admin/invite", {
      method: "POST",
      token,
      json: { email: "neu@example.com" },
    });
    expect(invited.status).toBe(201);
    const id = sql<{ id: number }>("SELECT id FROM invitations WHERE email = 'neu@example.com'")[0]
      ?.id;
    expect(
      (await server.fetch(`/api/admin/invitations/${id}/resend`, { method: "POST", token })).status,
    ).toBe(200);
    expect(
      (await server.fetch(`/api/admin/invitations/${id}`, { method: "DELETE", token })).status,
    ).toBe(200);
    for (const action of ["invitation-sent", "invitation-resent", "invitation-revoked"]) {
      expect(entries(action).at(-1), action).toMatchObject({
        target: `Einladung #${id}`,
        actor_id: admin.id,
      });
    }
    // A directly activated invitation for "system@…" never becomes the job actor's name.
    await server.fetch("/api/admin/invite", {
      method: "POST",
      token,
      json: { email: "system@example.com" },
    });
    const sid = sql<{ id: number }>(
      "SELECT id FROM invitations WHERE email = 'system@example.com'",
    )[0]?.id;
    // Power over others needs the step-up (ADR 315): the password goes along each time.
    const stepUp = { password: admin.password };
    const activated = await server.fetch(`/api/admin/invitations/${sid}/activate`, {
      method: "POST",
      token,
      json: { stepUp },
    });
    expect(activated.status).toBe(200);
    const created = (await activated.json()).adminData.username as string;
    expect(created.toLowerCase()).not.toBe("system");
    expect(entries("account-activated").at(-1)).toMatchObject({
      target: created,
      actor_id: admin.id,
    });

    const colleague = await insertAdmin("kollege-audit");
    const toggle = (activate: boolean) =>
      server.fetch(`/api/admin/users/${colleague.id}/toggle-status`, {
        method: "POST",
        token,
        json: { activate, stepUp },
      });
    expect((await toggle(false)).status).toBe(200);
    expect((await toggle(true)).status).toBe(200);
    expect(entries("account-deactivated").at(-1)).toMatchObject({ target: colleague.username });
    expect(entries("account-activated").at(-1)).toMatchObject({ target: colleague.username });
    expect(
      (
        await server.fetch(`/api/admin/users/${colleague.id}`, {
          method: "DELETE",
          token,
          json: { stepUp },
        })
      ).status,
    ).toBe(200);
    expect(entries("account-deleted").at(-1)).toMatchObject({
      target: colleague.username,
      actor_id: admin.id,
    });
  });

  it("password changed; an attachment opened; the log as CSV by actor id, without JS", async () => {
    const own = await insertAdmin("passwort-audit");
    const ownToken = await server.adminToken(own.username, own.password);
    const changed = await server.fetch("/api/admin/auth/change-password", {
      method: "POST",
      token: ownToken,
      json: { oldPassword: own.password, newPassword: "Wolke-Lampe-Fahrrad-91" },
    });
    expect(changed.status).toBe(200);
    expect(entries("password-changed").at(-1)).toMatchObject({
      target: own.username,
      actor_id: own.id,
    });

    const form = multipart(validFields(), [
      { name: "plan.pdf", bytes: pdfBytes(), type: "application/pdf" },
    ]);
    const submitted = await server.fetch("/api/requests", { method: "POST", body: form });
    expect(submitted.status).toBe(201);
    const [file] = sql<{ filename: string }>(
      "SELECT filename FROM attachments ORDER BY id DESC LIMIT 1",
    );
    expect((await server.fetch(`/api/uploads/${file?.filename}`, { token })).status).toBe(200);
    // A continued (range) read of the same file is not a new opening.
    await server.fetch(`/api/uploads/${file?.filename}`, { token, headers: { range: "bytes=5-" } });
    expect(entries("attachment-downloaded").filter((e) => e.actor_id === admin.id)).toHaveLength(1);

    const csv = await server.fetch(
      `/admin/audit.csv?actor=${admin.id}&action=attachment-downloaded`,
      { token },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="protokoll-/);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // BOM: German Excel reads UTF-8
    const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
    expect(lines[0]).toBe("Zeitpunkt (UTC);Wer;Über;Aktion;Ziel;Details");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`;${admin.username};Sitzung;Anhang heruntergeladen;Anfrage #`);
    // The export itself is audited; without a session the CSV is a login redirect.
    expect(entries("export-csv").at(-1)).toMatchObject({ target: "Protokoll", actor_id: admin.id });
    expect((await server.fetch("/admin/audit.csv")).status).toBe(302);
    // The page links the CSV with the page's filters (a plain link: no JS needed).
    const page = await (await server.fetch(`/admin/audit?actor=${admin.id}`, { token })).text();
    expect(page).toContain(`href="/admin/audit.csv?actor=${admin.id}"`);
    expect(page).toContain(`<option value="${admin.id}" selected="">${admin.username}</option>`);
  });
});
