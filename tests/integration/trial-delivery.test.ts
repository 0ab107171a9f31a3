// "Testversion liefern" over HTTP (ADR 348): the trial's link and the admin's words reach the lead
// through the message thread (greeting with the first name, the link, a booking link while no
// demo is booked, Reply-To the admin), the promise is recorded kept or late, the stage moves, the
// webhook is announced; bad input and archived, held or erased requests change nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { mailOutbox, requestMessages, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { apiLogin, insertAdmin } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let token: string;
let receiver: Server;
const hooks: { event: string; data: { id: number; trialUrl: string | null } }[] = [];

beforeAll(async () => {
  inbox = await startSmtpInbox();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hooks.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  server = await startTestServer({
    SMTP_URL: inbox.url,
    SUBMISSION_RATE_LIMIT: "1000/1h",
    WEBHOOK_ALLOW_LOCAL: "true",
  });
  token = await server.adminToken();
  const port = (receiver.address() as AddressInfo).port;
  await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      webhooks: [
        {
          id: "trial",
          url: `http://127.0.0.1:${port}/hook`,
          events: ["request.trial_delivered", "request.stage_changed"],
          secret: "geheim-0123456789-abcdef",
        },
      ],
    },
  });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function submit(name: string, email: string) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ name, email, altcha: await solvedAltcha(server.url) })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const deliver = (id: number, json: unknown, as = token) =>
  server.fetch(`/api/admin/requests/${id}/trial`, { method: "POST", token: as, json });
const row = (id: number) => db().select().from(requests).where(eq(requests.id, id)).get();
const thread = (id: number) =>
  db().select().from(requestMessages).where(eq(requestMessages.requestId, id)).all();

describe("Testversion liefern", () => {
  it("mails the lead through the thread, records the promise as kept, moves the stage, announces it", async () => {
    const id = await submit("Tina Test", "tina.trial@example.com");
    await server.fetch(`/api/admin/requests/${id}/stage`, {
      method: "POST",
      token,
      json: { stage: "demo" },
    });
    await server.drainWebhooks();
    hooks.length = 0;
    const res = await deliver(id, {
      url: "https://demo.example.com/tina",
      message: "Hier ist deine Terminplanung zum Ausprobieren.",
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      kept: true,
      message: "Testversion geliefert – rechtzeitig.",
      thread: { subject: "Deine Testversion ist da", status: "queued", direction: "out" },
      request: { stage: { id: "trial" }, trialUrl: "https://demo.example.com/tina" },
    });
    const r = row(id);
    expect(r?.trialDoneAt).not.toBeNull();
    expect(r?.contactDoneAt).not.toBeNull();
    expect(r?.stage).toBe("trial");

    await server.drainOutbox();
    const mail = await inbox.waitFor("tina.trial@example.com", /Deine Testversion ist da/);
    expect(mail.text).toMatch(/^Hallo Tina,/);
    expect(mail.text).toContain("Hier ist deine Terminplanung zum Ausprobieren.");
    expect(mail.text).toContain("Testversion öffnen: https://demo.example.com/tina");
    // No demo booked yet: the booking link (the request's signed link to the booking).
    expect(mail.text).toMatch(
      /Demo-Termin buchen: http:\/\/[^\s]+\/meine-anfrage\?token=[^\s]+ziel=termin/,
    );
    expect(mail.html).toContain('href="https://demo.example.com/tina"');
    const me = (await (await server.fetch("/api/admin/auth/verify", { token })).json()).admin;
    expect(mail.replyTo).toEqual([me.email]);
    expect(thread(id).map((m) => m.subject)).toEqual(["Deine Testversion ist da"]);
    // The thread keeps the link, never the booking link's token.
    expect(thread(id)[0].body).toContain("Testversion: https://demo.example.com/tina");
    expect(thread(id)[0].body).not.toContain("token=");

    await server.drainWebhooks();
    expect(hooks.map((h) => h.event)).toEqual(["request.stage_changed", "request.trial_delivered"]);
    expect(hooks[1].data).toMatchObject({ id, trialUrl: "https://demo.example.com/tina" });
  });

  it("a late delivery is recorded as late; a second one keeps the first time and only updates the link", async () => {
    const id = await submit("Lars Spät", "lars.late@example.com");
    const past = new Date(Date.now() - 86_400_000 - 999);
    db().update(requests).set({ trialDueAt: past }).where(eq(requests.id, id)).run();
    const first = await deliver(id, { url: "https://demo.example.com/lars" });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      kept: false,
      message: "Testversion geliefert – nach der versprochenen Zeit.",
    });
    const done = row(id)?.trialDoneAt?.getTime();
    const second = await deliver(id, { url: "https://demo.example.com/lars-v2" });
    expect(second.status).toBe(201);
    expect(row(id)?.trialDoneAt?.getTime()).toBe(done);
    expect(row(id)?.trialUrl).toBe("https://demo.example.com/lars-v2");
    // Without a text of the admin's, the mail says the trial is ready.
    await server.drainOutbox();
    const mail = await inbox.waitFor("lars.late@example.com", /Deine Testversion ist da/);
    expect(mail.text).toContain("deine Testversion ist fertig – probier sie gleich aus.");
  });

  it("refuses a non-https or over-long link, archived, held and erased requests — nothing changes", async () => {
    const id = await submit("Rolf Refus", "rolf@example.com");
    const mailsBefore = db().select().from(mailOutbox).all().length;
    const cases: [unknown, number, string][] = [
      [
        { url: "http://demo.example.com" },
        400,
        "Bitte geben Sie eine vollständige Adresse mit https:// ein.",
      ],
      [
        { url: "javascript:alert(1)" },
        400,
        "Bitte geben Sie eine vollständige Adresse mit https:// ein.",
      ],
      [
        { url: "https://user:pw@demo.example.com" },
        400,
        "Bitte geben Sie eine vollständige Adresse mit https:// ein.",
      ],
      [
        { url: `https://demo.example.com/${"x".repeat(2000)}` },
        400,
        "Der Link darf höchstens 2000 Zeichen lang sein.",
      ],
      [{ url: "" }, 400, "Bitte geben Sie den Link zur Testversion ein."],
      [{}, 400, "Bitte geben Sie den Link zur Testversion ein."],
    ];
    for (const [json, status, message] of cases) {
      const res = await deliver(id, json);
      expect(res.status, JSON.stringify(json).slice(0, 60)).toBe(status);
      const answer = await res.json();
      expect(answer.error).toBe(message);
      expect(answer.fieldErrors.url).toEqual([message]);
    }

    db().update(requests).set({ archived: true }).where(eq(requests.id, id)).run();
    const archived = await deliver(id, { url: "https://demo.example.com/a" });
    expect(archived.status).toBe(409);
    expect((await archived.json()).error).toMatch(/^Die Anfrage ist archiviert/);
    db()
      .update(requests)
      .set({ archived: false, quarantinedAt: new Date() })
      .where(eq(requests.id, id))
      .run();
    const held = await deliver(id, { url: "https://demo.example.com/a" });
    expect(held.status).toBe(409);
    expect((await held.json()).error).toMatch(/wartet auf die Spamprüfung/);
    db().update(requests).set({ quarantinedAt: null, email: "" }).where(eq(requests.id, id)).run();
    const erased = await deliver(id, { url: "https://demo.example.com/a" });
    expect(erased.status).toBe(409);
    expect((await erased.json()).error).toMatch(/Daten dieser Anfrage wurden gelöscht/);
    expect((await deliver(999_999, { url: "https://demo.example.com/a" })).status).toBe(404);

    expect(row(id)).toMatchObject({ trialDoneAt: null, trialUrl: null, stage: "new" });
    expect(thread(id)).toEqual([]);
    expect(db().select().from(mailOutbox).all().length).toBe(mailsBefore);
  });

  it("needs the trials:write scope", async () => {
    const id = await submit("Sina Scope", "sina@example.com");
    const owner = await insertAdmin("trial-integrator");
    const session = await apiLogin(server, owner.username, owner.password);
    const create = async (scopes: string[]) =>
      (
        (await (
          await server.fetch("/api/admin/api-tokens", {
            method: "POST",
            token: session,
            json: { name: scopes.join(","), scopes, password: owner.password },
          })
        ).json()) as { token: string }
      ).token;
    const messages = await create(["messages:write", "requests:write"]);
    const trials = await create(["trials:write"]);
    expect((await deliver(id, { url: "https://demo.example.com/s" }, messages)).status).toBe(403);
    expect((await deliver(id, { url: "https://demo.example.com/s" }, trials)).status).toBe(201);
  });

  it("the page without JavaScript: a toast, or the draft with the message at its field", async () => {
    const id = await submit("Paul Page", "paul.page@example.com");
    const cookie = await server.adminCookie();
    const post = (form: Record<string, string>) =>
      server.fetch(`/admin/requests?requestId=${id}`, {
        method: "POST",
        headers: {
          cookie,
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ intent: "trial", id: String(id), ...form }),
      });
    const refused = await post({ url: "ftp://demo.example.com", message: "Mein Text" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Bitte geben Sie eine vollständige Adresse mit https:// ein.");
    expect(html).toContain("Mein Text");
    const ok = await post({ url: "https://demo.example.com/paul", message: "" });
    expect(ok.status).toBe(302);
    expect(row(id)?.trialUrl).toBe("https://demo.example.com/paul");
  });
});
