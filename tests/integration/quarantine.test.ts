// The admin side of the spam quarantine (ADR 252): a quarantined request (quarantined_at
// set here directly, as the submission verdict would) is left out of the default list, the counts,
// the dashboard and the duplicate hints; releasing it runs the new-request flow exactly once;
// deleting erases it; the retention job erases it after spam.quarantineDays; admins see their
// count in the morning digest (content-free).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getConfiguration, saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { appointments, auditLog, mailOutbox, requests, webhookDeliveries } from "~db/schema";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { mswListenOptions, setupMocks } from "./msw";
import { startTestServer, type TestServer } from "./server";

const DAY = 86_400_000;
let server: TestServer;
let token: string;
let cookie: string;
let receiver: { server: Server; url: string; bodies: string[] };
const msw = setupMocks();
let aiCalls = 0;

/** A request as stored by a submission; `quarantined` sets quarantined_at like the verdict does. */
function seedRequest(name: string, quarantined: boolean, extra: { email?: string } = {}) {
  const email = extra.email ?? `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`;
  return db()
    .insert(requests)
    .values({
      name,
      email,
      emailKey: email,
      phone: "+49 30 1234 5678",
      companyDescription: `Firma von ${name}`,
      description: `Eine App für ${name}.`,
      // A submission's visitor secret: the receipt carries the signed request link.
      visitorSecretHash: "a".repeat(64),
      quarantinedAt: quarantined ? new Date() : null,
    })
    .returning()
    .get().id;
}

const mailsOf = (id: number, kind: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.requestId, id), eq(mailOutbox.kind, kind)))
    .all();
const deliveriesOf = (id: number) =>
  db().select().from(webhookDeliveries).where(eq(webhookDeliveries.requestId, id)).all();

beforeAll(async () => {
  // Started without an AI key: the server's own summary task stays off, the test drives the job.
  server = await startTestServer({ WEBHOOK_ALLOW_LOCAL: "true", ANTHROPIC_API_KEY: undefined });
  // The server has read its environment; this file's own modules (summarizePending) see the key.
  process.env.ANTHROPIC_API_KEY = "test-key";
  token = await server.adminToken();
  cookie = await server.adminCookie();
  const bodies: string[] = [];
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  receiver = {
    server: hook,
    bodies,
    url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}`,
  };
  const res = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      webhooks: [
        {
          id: "crm",
          url: `${receiver.url}/crm`,
          // The appointment events too: a quarantined request's booking changes must not fire them.
          events: ["request.created", "appointment.booked", "appointment.cancelled"],
          secret: "geheim-0123456789-abcdef",
          format: "json",
        },
      ],
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  saveConfiguration({
    ...getConfiguration(),
    emailNotifications: {
      ...getConfiguration().emailNotifications,
      enabled: true,
      externalEmails: ["team@example.com"],
    },
  });
  msw.listen(mswListenOptions);
  msw.use(
    http.post(`${ANTHROPIC_URL}/v1/messages`, () => {
      aiCalls += 1;
      return HttpResponse.json(anthropicText("Eine Zusammenfassung."));
    }),
  );
});
afterAll(async () => {
  msw.close();
  delete process.env.ANTHROPIC_API_KEY;
  await new Promise((resolve) => receiver.server.close(resolve));
  await server.close();
});
beforeEach(async () => {
  await server.drainOutbox();
  await server.drainWebhooks();
  receiver.bodies.length = 0;
});

describe("left out of every default view", () => {
  it("the list, its counts, the API lists, stats, dashboard, CSV and duplicate hints", async () => {
    const normal = seedRequest("Normale Kundin", false, { email: "doppelt@example.com" });
    const spam = seedRequest("Spam Sender", true, { email: "doppelt@example.com" });
    const later = seedRequest("Spätere Kundin", false, { email: "doppelt@example.com" });

    const list = await (await server.fetch("/api/admin/requests", { token })).json();
    const ids = list.requests.map((r: { id: number }) => r.id);
    expect(ids).toContain(normal);
    expect(ids).not.toContain(spam);
    expect(list.requests.find((r: { id: number }) => r.id === normal).quarantined).toBe(false);
    const plain = await (await server.fetch("/api/requests", { token })).json();
    expect(plain.map((r: { id: number }) => r.id)).not.toContain(spam);

    const held = await (
      await server.fetch("/api/admin/requests?quarantined=true", { token })
    ).json();
    expect(
      held.requests.map((r: { id: number; quarantined: boolean }) => [r.id, r.quarantined]),
    ).toEqual([[spam, true]]);
    const one = await (await server.fetch(`/api/admin/requests/${spam}`, { token })).json();
    expect(one.quarantined).toBe(true);

    const { stats, conversion } = await (await server.fetch("/api/admin/stats", { token })).json();
    expect(stats.totalRequests).toBe(2);
    expect(stats.newRequests).toBe(2);
    expect(stats.activeRequests).toBe(2);
    const perWeek = conversion.weeks.reduce((n: number, w: { count: number }) => n + w.count, 0);
    expect(perWeek).toBe(2);
    expect(conversion.demo.requests).toBe(2);

    const csv = await (await server.fetch("/api/admin/requests/export.csv", { token })).text();
    expect(csv).toContain("Normale Kundin");
    expect(csv).not.toContain("Spam Sender");
    expect(csv).not.toMatch(/quarant/i);

    const page = await (await server.fetch("/admin/requests", { headers: { cookie } })).text();
    expect(page).toMatch(/Prüfen \(1\)/);
    expect(page).not.toContain("Spam Sender");
    // The later request of the same person counts one earlier request (the normal one), not two.
    expect(page).toMatch(/1 frühere Anfrage\b/);
    expect(page).not.toMatch(/2 frühere Anfragen/);

    const review = await (
      await server.fetch("/admin/requests?tab=quarantine", { headers: { cookie } })
    ).text();
    expect(review).toContain("Spam Sender");
    expect(review).not.toContain("Normale Kundin");
    expect(review).toContain("Freigeben");

    for (const id of [normal, spam, later])
      await server.fetch(`/api/requests/${id}`, { method: "DELETE", token });
  });
});

describe("release", () => {
  it("runs the new-request flow once: one mail, one webhook delivery, one AI call; audited", async () => {
    const { summarizePending } = await import("~/server/ai/request-ai.server");
    const id = seedRequest("Echte Kundin", true);
    aiCalls = 0;
    // While quarantined: no AI call.
    await summarizePending();
    expect(aiCalls).toBe(0);

    // Two releases at once: the conditional UPDATE lets one of them run the flow.
    const [a, b] = await Promise.all(
      [1, 2].map(() =>
        server.fetch(`/api/requests/${id}`, {
          method: "PATCH",
          token,
          json: { quarantined: false },
        }),
      ),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await a.json()).request.quarantined).toBe(false);
    await server.drainOutbox();
    await server.drainWebhooks();

    expect(mailsOf(id, "new-request")).toHaveLength(1);
    expect(mailsOf(id, "request-receipt")).toHaveLength(1);
    expect(deliveriesOf(id).map((d) => d.event)).toEqual(["request.created"]);
    expect(receiver.bodies).toHaveLength(1);
    expect(JSON.parse(receiver.bodies[0]).data).not.toHaveProperty("quarantined");

    expect(await summarizePending()).toBe(1);
    expect(await summarizePending()).toBe(0);
    expect(aiCalls).toBe(1);

    const audits = db().select().from(auditLog).where(eq(auditLog.action, "release")).all();
    expect(audits.map((e) => e.target)).toEqual([`Anfrage #${String(id).padStart(4, "0")}`]);
    // Now an ordinary request.
    const list = await (await server.fetch("/api/admin/requests", { token })).json();
    expect(list.requests.map((r: { id: number }) => r.id)).toContain(id);
  });

  it("PATCH refuses quarantined: true; releasing twice changes nothing more", async () => {
    const id = seedRequest("Zweimal Frei", true);
    const refused = await server.fetch(`/api/requests/${id}`, {
      method: "PATCH",
      token,
      json: { quarantined: true },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/freigeben/);
    for (const _ of [1, 2]) {
      const res = await server.fetch(`/api/requests/${id}`, {
        method: "PATCH",
        token,
        json: { quarantined: false, status: "In Progress" },
      });
      expect(res.status).toBe(200);
    }
    await server.drainOutbox();
    expect(mailsOf(id, "new-request")).toHaveLength(1);
    const missing = await server.fetch("/api/requests/999999", {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(missing.status).toBe(404);
  });

  it("the page's Freigeben and Löschen (form posts, no JS)", async () => {
    const kept = seedRequest("Formular Frei", true);
    const gone = seedRequest("Formular Weg", true);
    const post = (fields: Record<string, string>) =>
      server.fetch("/admin/requests?tab=quarantine", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const released = await post({ intent: "release", id: String(kept) });
    expect(released.status).toBe(302);
    expect(released.headers.get("location")).toBe("/admin/requests?tab=quarantine&focus=heading");
    const deleted = await post({ intent: "delete", id: String(gone), confirmed: "1" });
    expect(deleted.status).toBe(302);
    expect(db().select().from(requests).where(eq(requests.id, gone)).get()).toBeUndefined();
    expect(
      db().select().from(requests).where(eq(requests.id, kept)).get()?.quarantinedAt,
    ).toBeNull();
    await server.drainOutbox();
    expect(mailsOf(kept, "new-request")).toHaveLength(1);
    await server.fetch(`/api/requests/${kept}`, { method: "DELETE", token });
  });
});

describe("a quarantined request's booking", () => {
  it("cancelling it fires no appointment.cancelled webhook", async () => {
    const id = seedRequest("Bot", true);
    const appointment = db()
      .insert(appointments)
      .values({
        requestId: id,
        provider: "builtin",
        externalUid: `quarantined-${id}`,
        eventTypeKey: "demo",
        eventTypeName: "Demo",
        startTime: new Date(Date.now() + 5 * DAY),
        status: "ACCEPTED",
      })
      .returning()
      .get();
    const res = await server.fetch(`/api/admin/appointments/${appointment.id}/cancel`, {
      method: "POST",
      token,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    // The request is still quarantined: its booking changes silently, like its booking did.
    expect(deliveriesOf(id).map((d) => d.event)).toEqual([]);
    await server.fetch(`/api/requests/${id}`, { method: "DELETE", token });
  });
});

describe("background jobs", () => {
  it("erases quarantined requests after spam.quarantineDays (default 30) in the retention run", async () => {
    const { applyRetention } = await import("~/server/privacy/retention.server");
    const old = seedRequest("Alter Spam", true);
    const fresh = seedRequest("Neuer Spam", true);
    const normal = seedRequest("Normal Alt", false);
    const now = Date.now();
    db()
      .update(requests)
      .set({ quarantinedAt: new Date(now - 31 * DAY) })
      .where(eq(requests.id, old))
      .run();
    const result = await applyRetention(new Date(now));
    expect(result.quarantine).toBe(1);
    const left = db()
      .select({ id: requests.id })
      .from(requests)
      .all()
      .map((r) => r.id);
    expect(left).not.toContain(old);
    expect(left).toContain(fresh);
    expect(left).toContain(normal);
    // 30 days later (fake clock) the fresh one goes too.
    expect((await applyRetention(new Date(now + 31 * DAY))).quarantine).toBe(1);
    await server.fetch(`/api/requests/${normal}`, { method: "DELETE", token });
  });

  it("the admins hear of the held requests in the morning digest: a count, a link, no content", async () => {
    // The daily quarantine mail of its own is gone (ADR 352): without SMTP the digest is the
    // dashboard's "Heute" card, with SMTP the 07:30 mail (tests/integration/morning-digest.test.ts).
    const a = seedRequest("Spam Eins", true);
    const b = seedRequest("Spam Zwei", true);
    const html = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
    const card = html.slice(html.indexOf("data-today-card"));
    expect(card).toContain("2 Anfragen warten auf Prüfung");
    expect(card).toContain('href="/admin/requests?tab=quarantine"');
    expect(html).not.toContain("Spam Eins");
    expect(html).not.toContain("Spam Zwei");
    for (const id of [a, b]) await server.fetch(`/api/requests/${id}`, { method: "DELETE", token });
  });
});
