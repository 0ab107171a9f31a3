// Messages to the lead from the request (ADR 273): a mail through the outbox to the
// lead with Reply-To the sending admin, the thread in the admin JSON with the outbox's status,
// the limits (per admin per hour, per lead per day; parallel-safe), not for quarantined requests,
// never in webhooks or the CSV, in the export, gone after erasure, audited without its text.
import { and, eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAdmin } from "~/server/accounts/admins.server";
import { hashPassword } from "~/server/platform/crypto.server";
import { db, transaction } from "~/server/platform/db.server";
import { auditLog, mailOutbox, requestMessages, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let token: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    SUBMISSION_RATE_LIMIT: "1000/1h",
    TRANSCRIPTION_API_URL: undefined,
  });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

async function submit(fields: Record<string, string> = {}) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ ...fields, altcha: await solvedAltcha(server.url) })),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; email: string };
}

const send = (id: number, body: { subject: string; body: string }, as = token) =>
  server.fetch(`/api/admin/requests/${id}/messages`, { method: "POST", token: as, json: body });

async function newAdmin(username: string) {
  const password = `${username}-passwort`;
  const passwordHash = await hashPassword(password);
  transaction((tx) =>
    insertAdmin(tx, {
      username,
      email: `${username}@team.example.com`,
      passwordHash,
      isActive: true,
      passwordChanged: true,
    }),
  );
  return server.adminToken(username, password);
}

describe("messages to the lead", () => {
  it("mails the lead with Reply-To the admin, keeps the thread, audits without the text", async () => {
    const lead = await submit({ email: "lena.lead@example.com", name: "Lena Lead" });
    expect((await send(lead.id, { subject: "x", body: "y" }, "")).status).toBe(401);
    const res = await send(lead.id, {
      subject: "Rückfrage zu deiner Anfrage",
      body: "Hallo Lena,\nwie viele Filialen habt ihr?",
    });
    expect(res.status).toBe(201);
    const message = await res.json();
    expect(message).toEqual({
      id: expect.any(Number),
      direction: "out",
      subject: "Rückfrage zu deiner Anfrage",
      body: "Hallo Lena,\nwie viele Filialen habt ihr?",
      sentAt: expect.any(String),
      admin: "admin",
      status: "queued",
    });

    await server.drainOutbox();
    const mail = await inbox.waitFor("lena.lead@example.com", /Rückfrage zu deiner Anfrage/);
    expect(mail.to).toEqual(["lena.lead@example.com"]);
    const me = (await (await server.fetch("/api/admin/account", { token })).json()) as {
      email?: string;
      admin?: { email: string };
    };
    const adminEmail = me.email ?? me.admin?.email;
    expect(adminEmail).toBeTruthy();
    expect(mail.replyTo).toEqual([adminEmail]);
    expect(mail.text).toContain("wie viele Filialen habt ihr?");
    expect(mail.text).toContain("Viele Grüße\nAnfrage-Portal");

    const json = (await (
      await server.fetch(`/api/admin/requests/${lead.id}`, { token })
    ).json()) as {
      messages: { id: number; status: string }[];
    };
    expect(json.messages).toEqual([{ ...message, status: "sent" }]);
    const thread = await (
      await server.fetch(`/api/admin/requests/${lead.id}/messages`, { token })
    ).json();
    expect(thread).toEqual(json.messages);

    const entries = db().select().from(auditLog).where(eq(auditLog.action, "message-sent")).all();
    expect(entries.at(-1)?.target).toBe(`Anfrage #${String(lead.id).padStart(4, "0")}`);
    expect(JSON.stringify(entries)).not.toContain("Filialen");
    expect(JSON.stringify(entries)).not.toContain("Rückfrage");

    // Never in the CSV.
    const csv = await (await server.fetch("/api/admin/requests/export.csv", { token })).text();
    expect(csv).not.toContain("wie viele Filialen");
  });

  it("refuses invalid input (400) and unknown requests (404)", async () => {
    const lead = await submit();
    const empty = await send(lead.id, { subject: " ", body: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "Bitte geben Sie einen Betreff ein." });
    expect((await send(999999, { subject: "a", body: "b" })).status).toBe(404);
  });

  it("allows 5 messages per lead per day, then 429 (the same person across requests)", async () => {
    const first = await submit({ email: "viel.post@example.com" });
    const second = await submit({ email: "Viel.Post@example.com" });
    for (let i = 0; i < 5; i++)
      expect(
        (await send(i % 2 ? second.id : first.id, { subject: `N${i}`, body: "Text" })).status,
      ).toBe(201);
    const refused = await send(first.id, { subject: "Noch eine", body: "Text" });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/heute schon 5 Nachrichten/);
  });

  it("allows 20 messages per admin per hour, even when sent in parallel", async () => {
    const busy = await newAdmin("vielschreiber");
    const leads = await Promise.all([1, 2, 3, 4, 5].map(() => submit()));
    const answers = await Promise.all(
      leads.flatMap((lead) =>
        [1, 2, 3, 4, 5].map((n) => send(lead.id, { subject: `Nr. ${n}`, body: "Text" }, busy)),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const mine = db()
      .select()
      .from(requestMessages)
      .where(eq(requestMessages.adminName, "vielschreiber"))
      .all();
    expect(mine).toHaveLength(20);
  });

  it("is refused for a quarantined request (409)", async () => {
    const lead = await submit();
    db().update(requests).set({ quarantinedAt: new Date() }).where(eq(requests.id, lead.id)).run();
    const res = await send(lead.id, { subject: "Hallo", body: "Text" });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/Spamprüfung/);
    expect(
      db().select().from(requestMessages).where(eq(requestMessages.requestId, lead.id)).all(),
    ).toEqual([]);
  });

  it("the form works without JavaScript: sends, or gives the draft back with the reason", async () => {
    const lead = await submit({ email: "formular.lead@example.com" });
    const cookie = await server.adminCookie();
    const page = `/admin/requests?requestId=${lead.id}`;
    const html = await (await server.fetch(page, { headers: { cookie } })).text();
    expect(html).toContain("Nachricht an den Kunden");
    const post = (fields: Record<string, string>) =>
      server.fetch(page, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "message", id: String(lead.id), ...fields }).toString(),
      });
    const invalid = await post({ subject: "Nur Betreff", body: "" });
    expect(invalid.status).toBe(400);
    const answer = await invalid.text();
    expect(answer).toContain("Bitte schreiben Sie eine Nachricht.");
    expect(answer).toContain('value="Nur Betreff"');
    const sent = await post({ subject: "Per Formular", body: "Ohne JavaScript geschrieben." });
    expect(sent.status).toBe(302);
    await server.drainOutbox();
    const mail = await inbox.waitFor("formular.lead@example.com", /Per Formular/);
    expect(mail.text).toContain("Ohne JavaScript geschrieben.");
  });

  it("is in the person's export, and erasure removes the thread and its mails", async () => {
    const lead = await submit({ email: "export.nachricht@example.com" });
    expect((await send(lead.id, { subject: "Exportiert", body: "Steht im Export." })).status).toBe(
      201,
    );
    const res = await server.fetch(`/api/admin/requests/${lead.id}/export`, { token });
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(new TextDecoder().decode(zip["daten.json"]));
    expect(data.anfragen[0].nachrichten).toMatchObject([
      { subject: "Exportiert", body: "Steht im Export.", direction: "out", admin: "admin" },
    ]);

    const { eraseRequest } = await import("~/server/privacy/erasure.server");
    expect((await eraseRequest(lead.id, "anonymize")).ok).toBe(true);
    expect(
      db().select().from(requestMessages).where(eq(requestMessages.requestId, lead.id)).all(),
    ).toEqual([]);
    expect(
      db()
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.requestId, lead.id), eq(mailOutbox.kind, "message")))
        .all(),
    ).toEqual([]);

    const other = await submit();
    expect((await send(other.id, { subject: "Weg", body: "Wird gelöscht." })).status).toBe(201);
    expect(
      (await server.fetch(`/api/requests/${other.id}`, { method: "DELETE", token })).status,
    ).toBe(200);
    expect(
      db().select().from(requestMessages).where(eq(requestMessages.requestId, other.id)).all(),
    ).toEqual([]);
  });

  it("signs with the configured brand name, not the product's default", async () => {
    const patched = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { branding: { name: "Müller Solar GmbH" } },
    });
    expect(patched.status).toBe(200);
    try {
      const lead = await submit({ email: "brand.lead@example.com" });
      const sent = await send(lead.id, {
        subject: "Signatur-Probe",
        body: "Wie viele Standorte habt ihr?",
      });
      expect(sent.status).toBe(201);
      await server.drainOutbox();
      const mail = await inbox.waitFor("brand.lead@example.com", /Signatur-Probe/);
      // The sender's display name follows the brand ...
      expect(mail.from.name).toBe("Müller Solar GmbH");
      // ... and so does the signature under the admin's text.
      expect(mail.text).toContain("Viele Grüße\nMüller Solar GmbH");
      expect(mail.text).not.toContain("Anfrage-Portal");
    } finally {
      await server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { branding: { name: null } },
      });
    }
  });
});

describe("messages by API token", () => {
  it("needs the messages:write scope to send (requests:read may read the thread)", async () => {
    const create = async (scopes: string[]) => {
      const res = await server.fetch("/api/admin/api-tokens", {
        method: "POST",
        token,
        json: { name: `Integration ${scopes.join(",")}`, scopes, password: "admin-passwort" },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { token: string }).token;
    };
    const reader = await create(["requests:read", "requests:write"]);
    const writer = await create(["messages:write"]);
    const lead = await submit({ email: "token.lead@example.com" });
    const body = { subject: "Per Integration", body: "Aus dem CRM geschrieben." };
    expect((await send(lead.id, body, reader)).status).toBe(403);
    const sent = await send(lead.id, body, writer);
    expect(sent.status).toBe(201);
    expect((await sent.json()).admin).toBe("admin");
    const thread = await server.fetch(`/api/admin/requests/${lead.id}/messages`, { token: reader });
    expect(thread.status).toBe(200);
    expect(await thread.json()).toMatchObject([{ subject: "Per Integration" }]);
  });
});
