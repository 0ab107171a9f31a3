// Outgoing webhooks (ADR 248): a receiver on loopback verifies the signature; retries after it was
// down; the Slack format; the PATCH masking rules; redirects, time-out and response cap. The outbox is
// driven deterministically: drainWebhooks() flushes, the backoff is "waited out" in the database.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { solvedAltcha } from "../altcha-solution";
import { insertAdmin, testDb } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

type Received = { path: string; headers: IncomingMessage["headers"]; body: string };

/** A webhook receiver on 127.0.0.1: records every POST; some paths misbehave on purpose. */
async function startReceiver(port = 0) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (path === "/redirect") {
        res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
      } else if (path === "/slow") {
        // No answer at all: the time-out. (The socket is closed by the client or the receiver's close.)
      } else if (path === "/slow-body") {
        res.writeHead(200); // a 2xx status at once, the body never ends: delivered, not a time-out
        res.write("warte");
      } else if (path === "/endless") {
        res.writeHead(200);
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once("drain", pump);
        };
        pump();
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const SECRET = "geheim-0123456789-abcdef";
const SLACK_SECRET = "slack-secret-9876543210";
const ALL_EVENTS = [
  "request.created",
  "request.status_changed",
  "appointment.booked",
  "appointment.cancelled",
];

let server: TestServer;
let token: string;
let receiver: Receiver;

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}
function run(query: string) {
  const db = testDb();
  try {
    db.prepare(query).run();
  } finally {
    db.close();
  }
}

const patchWebhooks = (webhooks: unknown[]) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json: { webhooks } });

async function submit(name = "Anna Beispiel"): Promise<number> {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ name, altcha: await solvedAltcha(server.url) })),
  });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

function verify(body: string, signature: string | string[] | undefined, secret: string) {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(String(signature ?? ""));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "100/1h", WEBHOOK_TIMEOUT_MS: "800" });
  token = await server.adminToken();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await server.close();
  delete process.env.SUBMISSION_RATE_LIMIT;
  delete process.env.WEBHOOK_TIMEOUT_MS;
});
beforeEach(async () => {
  await server.drainWebhooks();
  receiver.received.length = 0;
});

describe("webhook configuration over the API", () => {
  it("stores the secret encrypted, never returns it in full, and keeps it when omitted or masked", async () => {
    const res = await patchWebhooks([
      { id: "crm", url: `${receiver.url}/crm`, events: ALL_EVENTS, secret: SECRET, format: "json" },
    ]);
    expect(res.status).toBe(200);
    const saved = await res.json();
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    expect(saved.configuration.webhooks[0].secret).toBe("••••••••cdef");

    const stored = sql<{ data: string }>("SELECT data FROM configuration WHERE id = 1")[0].data;
    expect(stored).not.toContain(SECRET);
    expect(JSON.parse(stored).webhooks[0].secret).toMatch(/^enc:v1:/);

    const got = await (await server.fetch("/api/configuration", { token })).json();
    expect(got.webhooks).toEqual([
      {
        id: "crm",
        url: `${receiver.url}/crm`,
        events: ALL_EVENTS,
        secret: "••••••••cdef",
        format: "json",
      },
    ]);
    // Visitors see no webhooks at all.
    expect(await (await server.fetch("/api/configuration")).json()).not.toHaveProperty("webhooks");

    // Omitted and masked secrets keep the stored one (the signature below proves which).
    const omitted = await patchWebhooks([
      { id: "crm", url: `${receiver.url}/crm`, events: ALL_EVENTS, format: "json" },
    ]);
    expect(omitted.status).toBe(200);
    const masked = await patchWebhooks([
      { ...got.webhooks[0] },
      {
        id: "slack",
        url: `${receiver.url}/slack`,
        events: ["request.created"],
        secret: SLACK_SECRET,
        format: "slack",
      },
    ]);
    expect(masked.status).toBe(200);
    const id = await submit();
    await server.drainWebhooks();
    const crm = receiver.received.find((r) => r.path === "/crm");
    expect(crm && verify(crm.body, crm.headers["x-webhook-signature"], SECRET)).toBe(true);
    expect(JSON.parse(crm?.body ?? "{}").data.id).toBe(id);
  });

  it("refuses a new endpoint without a secret, a foreign encrypted value and bad input, in German", async () => {
    const noSecret = await patchWebhooks([
      { id: "neu", url: `${receiver.url}/neu`, events: ["request.created"] },
    ]);
    expect(noSecret.status).toBe(400);
    expect((await noSecret.json()).fieldErrors["webhooks.0.secret"][0]).toContain(
      "mindestens 16 Zeichen",
    );
    const foreign = await patchWebhooks([
      {
        id: "crm",
        url: `${receiver.url}/crm`,
        events: ALL_EVENTS,
        secret: "enc:v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      },
    ]);
    expect(foreign.status).toBe(400);
    const bad = await patchWebhooks([
      { id: "x", url: "ftp://example.com", events: [], secret: SECRET },
    ]);
    expect(bad.status).toBe(400);
    const errors = (await bad.json()).fieldErrors;
    expect(errors["webhooks.0.url"][0]).toContain("gültige URL");
    expect(errors["webhooks.0.events"][0]).toContain("mindestens ein Ereignis");
    // Cloud metadata is refused even with a local APP_URL.
    const metadata = await patchWebhooks([
      { id: "m", url: "http://169.254.169.254/latest", events: ALL_EVENTS, secret: SECRET },
    ]);
    expect(metadata.status).toBe(400);
    expect((await metadata.json()).fieldErrors["webhooks.0.url"][0]).toContain("nicht erlaubt");
    // Nothing of it was stored: the endpoints of the first test are still there.
    const got = await (await server.fetch("/api/configuration", { token })).json();
    expect(got.webhooks.map((w: { id: string }) => w.id)).toEqual(["crm", "slack"]);
  });

  it("shows no admin page or loader data an encrypted or plain secret", async () => {
    const withConfig = [
      "/admin/settings",
      "/admin/legacy",
      "/admin/settings.data",
      "/admin/legacy.data",
    ];
    for (const path of [...withConfig, "/admin", "/admin/settings/outbox"]) {
      const res = await server.fetch(path, { token });
      const text = await res.text();
      expect(res.status, path).toBe(200);
      if (withConfig.includes(path)) expect(text, path).toContain("••••••••cdef");
      expect(text, path).not.toContain("enc:v1:");
      expect(text, path).not.toContain(SECRET);
    }
  });

  it("keeps an undecryptable stored secret on save and asks for a new one on the settings page", async () => {
    const original = sql<{ data: string }>("SELECT data FROM configuration WHERE id = 1")[0].data;
    const broken = JSON.parse(original);
    broken.webhooks[0].secret = "enc:v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const db = testDb();
    db.prepare("UPDATE configuration SET data = ? WHERE id = 1").run(JSON.stringify(broken));
    db.close();
    try {
      const got = await (await server.fetch("/api/configuration", { token })).json();
      expect(got.webhooks[0].secret).toBe("••••••••");
      // Saving everything back (the masked secrets included) still works.
      const saved = await patchWebhooks(got.webhooks);
      expect(saved.status).toBe(200);
      const stored = sql<{ data: string }>("SELECT data FROM configuration WHERE id = 1")[0].data;
      expect(JSON.parse(stored).webhooks[0].secret).toBe(broken.webhooks[0].secret);
      const page = await (await server.fetch("/admin/settings", { token })).text();
      expect(page).toContain("Secret nicht entschlüsselbar – bitte neu setzen");
    } finally {
      const restore = testDb();
      restore.prepare("UPDATE configuration SET data = ? WHERE id = 1").run(original);
      restore.close();
    }
  });

  it("masks a Slack URL wherever it is shown and keeps the stored one when it comes back masked", async () => {
    const got = await (await server.fetch("/api/configuration", { token })).json();
    const slack = got.webhooks.find((w: { id: string }) => w.id === "slack");
    expect(slack.url).toBe(`${receiver.url}/••••••••lack`);
    expect(JSON.stringify(got)).not.toContain(`${receiver.url}/slack`);
    for (const path of ["/admin/settings", "/admin/legacy", "/admin/settings.data"]) {
      const text = await (await server.fetch(path, { token })).text();
      expect(text, path).toContain("••••••••lack");
      expect(text, path).not.toContain(`${receiver.url}/slack`);
    }
    const outbox = await (await server.fetch("/admin/settings/outbox", { token })).text();
    expect(outbox).toContain(`${receiver.url}/crm`);
    expect(outbox).not.toContain(`${receiver.url}/slack`);
    const saved = await patchWebhooks(got.webhooks);
    expect(saved.status).toBe(200);
    const stored = JSON.parse(
      sql<{ data: string }>("SELECT data FROM configuration WHERE id = 1")[0].data,
    );
    // Kept (ADR 262: sealed at rest like a secret; the Slack delivery below proves it opens to
    // the same URL).
    expect(stored.webhooks[1].url).toMatch(/^enc:v1:/);
    expect(JSON.stringify(stored)).not.toContain(`${receiver.url}/slack`);
    // A masked URL cannot become a new endpoint's target.
    const unknown = await patchWebhooks([...got.webhooks, { ...slack, id: "neu", secret: SECRET }]);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).fieldErrors["webhooks.2.url"][0]).toContain("gültige URL");
  });
});

describe("deliveries", () => {
  it("signs each event, carries a delivery id and the request JSON the API returns", async () => {
    // The server's own worker may send before the drain: the receiver's counts are the proof.
    const id = await submit("Berta Signatur");
    await server.drainWebhooks();
    const crm = receiver.received.filter((r) => r.path === "/crm");
    expect(crm).toHaveLength(1);
    const [delivery] = crm;
    expect(verify(delivery.body, delivery.headers["x-webhook-signature"], SECRET)).toBe(true);
    expect(verify(delivery.body, delivery.headers["x-webhook-signature"], SLACK_SECRET)).toBe(
      false,
    );
    expect(delivery.headers["x-webhook-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.headers["x-webhook-event"]).toBe("request.created");
    expect(delivery.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(delivery.body);
    expect(Object.keys(body)).toEqual(["event", "occurredAt", "data"]);
    expect(body.event).toBe("request.created");
    expect(Number.isNaN(Date.parse(body.occurredAt))).toBe(false);
    // The admin-only keys never go into webhooks (ADR 252: `quarantined`; ADRs 272, 273: the
    // transcript and the messages; ADRs 350, 351: the internal notes and the follow-up);
    // everything else is the API's request JSON.
    const {
      quarantined,
      voiceTranscript,
      voiceTranscriptStatus,
      messages,
      notes,
      followUp,
      ...api
    } = await (await server.fetch(`/api/admin/requests/${id}`, { token })).json();
    expect({
      quarantined,
      voiceTranscript,
      voiceTranscriptStatus,
      messages,
      notes,
      followUp,
    }).toEqual({
      quarantined: false,
      voiceTranscript: null,
      voiceTranscriptStatus: null,
      messages: [],
      notes: [],
      followUp: null,
    });
    expect(body.data).not.toHaveProperty("notes");
    expect(body.data).not.toHaveProperty("followUp");
    expect(body.data).toEqual({
      ...api,
      updatedAt: body.data.updatedAt,
      summary: body.data.summary,
    });
    expect(body.data.name).toBe("Berta Signatur");

    // A status change (same function for the HTML page and the API) is its own event.
    const changed = await server.fetch(`/api/requests/${id}`, {
      method: "PATCH",
      token,
      json: { status: "In Progress" },
    });
    expect(changed.status).toBe(200);
    await server.drainWebhooks();
    expect(receiver.received.filter((r) => r.path === "/crm")).toHaveLength(2);
    const status = receiver.received.filter((r) => r.path === "/crm").at(-1) as Received;
    expect(JSON.parse(status.body)).toMatchObject({
      event: "request.status_changed",
      data: { id, status: "In Progress" },
    });
    expect(status.headers["x-webhook-delivery"]).not.toBe(delivery.headers["x-webhook-delivery"]);
    // Nothing is sent twice: a further drain finds nothing due.
    expect(await server.drainWebhooks()).toBe(0);
    expect(receiver.received.filter((r) => r.path === "/crm")).toHaveLength(2);
  });

  it("sends the Slack format in German with the summary and the link to the request", async () => {
    const id = await submit("Carla Slack <b>&</b>");
    await server.drainWebhooks();
    const slack = receiver.received.filter((r) => r.path === "/slack");
    expect(slack).toHaveLength(1);
    const message = JSON.parse(slack[0].body);
    const padded = String(id).padStart(4, "0");
    const link = `http://localhost:3000/admin/requests?requestId=${id}`;
    // The fallback text is mrkdwn too: escaped like the blocks (finding 5).
    expect(message.text).toContain(
      `Neue Anfrage #${padded} von Carla Slack &lt;b&gt;&amp;&lt;/b&gt;`,
    );
    expect(message.text).toContain("Eine App, mit der Kundinnen Brötchen vorbestellen können.");
    expect(message.text).toContain(`Zur Anfrage: ${link}`);
    expect(message.blocks[0].text.text).toContain("Carla Slack &lt;b&gt;&amp;&lt;/b&gt;");
    expect(message.blocks[1].elements[0]).toMatchObject({ type: "button", url: link });
    expect(verify(slack[0].body, slack[0].headers["x-webhook-signature"], SLACK_SECRET)).toBe(true);
  });

  it("retries after the receiver was down and then delivers each event exactly once", async () => {
    // A receiver whose port refuses connections (nothing listens there yet).
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    await patchWebhooks([
      {
        id: "down",
        url: `http://127.0.0.1:${port}/hook`,
        events: ["request.created"],
        secret: SECRET,
      },
    ]);
    const ids = [await submit("Dora Ausfall"), await submit("Emil Ausfall")];
    expect(await server.drainWebhooks()).toBe(0);
    let rows = sql<{ status: string; attempts: number; last_error: string }>(
      "SELECT status, attempts, last_error FROM webhook_deliveries WHERE endpoint_id = 'down'",
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe("pending");
      expect(row.attempts).toBeGreaterThanOrEqual(1);
      expect(row.last_error).toContain("ECONNREFUSED");
    }
    // Time passes; the receiver comes back on the same port.
    const back = await startReceiver(port);
    try {
      run("UPDATE webhook_deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
      await server.drainWebhooks();
      run("UPDATE webhook_deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
      expect(await server.drainWebhooks()).toBe(0);
      expect(back.received).toHaveLength(2);
      expect(back.received.map((r) => JSON.parse(r.body).data.id).sort()).toEqual(ids.sort());
      rows = sql("SELECT status FROM webhook_deliveries WHERE endpoint_id = 'down'");
      expect(rows.every((r) => r.status === "sent")).toBe(true);
    } finally {
      await back.close();
    }
  });

  it("follows no redirect, times out a hanging receiver and reads at most the response cap", async () => {
    await patchWebhooks(
      ["redirect", "slow", "slow-body", "endless"].map((path) => ({
        id: path,
        url: `${receiver.url}/${path}`,
        events: ["request.created"],
        secret: SECRET,
      })),
    );
    await submit("Fritz Grenzen");
    await server.drainWebhooks();
    const rows = sql<{ endpoint_id: string; status: string; last_error: string | null }>(
      "SELECT endpoint_id, status, last_error FROM webhook_deliveries WHERE endpoint_id IN ('redirect', 'slow', 'slow-body', 'endless')",
    );
    const by = Object.fromEntries(rows.map((r) => [r.endpoint_id, r]));
    expect(by.redirect.status).toBe("pending");
    expect(by.redirect.last_error).toContain("Weiterleitungen werden nicht verfolgt");
    expect(receiver.received.some((r) => r.path === "/elsewhere")).toBe(false);
    expect(by.slow.last_error).toContain("Zeitüberschreitung");
    // 200 headers at once, the body still open after the time-out: delivered once, no retry.
    expect(by["slow-body"]).toMatchObject({ status: "sent", last_error: null });
    expect(receiver.received.filter((r) => r.path === "/slow-body")).toHaveLength(1);
    // An endless 2xx answer is cut at the cap (before the time-out) and counts as delivered.
    expect(by.endless).toMatchObject({ status: "sent", last_error: null });
  });

  it("enqueues an occurrence once per endpoint, however often the rule reports it", async () => {
    await patchWebhooks([
      { id: "once", url: `${receiver.url}/once`, events: ["request.created"], secret: SECRET },
    ]);
    const id = await submit("Gina Einmal");
    const { emitWebhook } = await import("~/server/webhooks/deliveries.server");
    const { loadRequestJson } = await import("~/server/requests/serialize.server");
    const data = loadRequestJson(id);
    if (!data) throw new Error("request missing");
    expect(emitWebhook({ event: "request.created", data }, String(id), id)).toBe(0);
    await server.drainWebhooks();
    expect(receiver.received.filter((r) => r.path === "/once")).toHaveLength(1);
  });
  it("announces a booked demo with the appointment JSON of the API", async () => {
    await patchWebhooks([
      {
        id: "termine",
        url: `${receiver.url}/termine`,
        events: ["appointment.booked", "appointment.cancelled"],
        secret: SECRET,
      },
    ]);
    const id = await submit("Hanna Termin");
    let day = firstBookableDay(1);
    while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay()))
      day = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const slots = await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: day, day },
      })
    ).json();
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: id, startTime: slots.slots[0].time, timeZone: "Europe/Berlin" },
    });
    expect(booked.status).toBe(201);
    await server.drainWebhooks();
    const hooks = receiver.received.filter((r) => r.path === "/termine");
    expect(hooks).toHaveLength(1);
    const body = JSON.parse(hooks[0].body);
    expect(body).toMatchObject({
      event: "appointment.booked",
      data: {
        startTime: slots.slots[0].time,
        provider: "builtin",
        request: { id, name: "Hanna Termin" },
      },
    });
    expect(verify(hooks[0].body, hooks[0].headers["x-webhook-signature"], SECRET)).toBe(true);
  });
  it("shows deliveries on the outbox page (no JS) and retries a failed one", async () => {
    const admin = await insertAdmin("outbox-admin", { passwordChanged: true });
    const login = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
    });
    const cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
    const [failed] = sql<{ id: number; delivery_id: string }>(
      "SELECT id, delivery_id FROM webhook_deliveries WHERE endpoint_id = 'redirect'",
    );
    run(`UPDATE webhook_deliveries SET status = 'failed' WHERE id = ${failed.id}`);
    const page = await (
      await server.fetch("/admin/settings/outbox", { headers: { cookie } })
    ).text();
    expect(page).toMatch(/Webhooks \(\d+\)/);
    expect(page).toContain(failed.delivery_id);
    expect(page).toContain("Fehlgeschlagen");
    expect(page).toContain("Zugestellt");
    expect(page).toContain("Erneut zustellen");

    const retried = await server.fetch("/admin/settings/outbox", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ webhookDelivery: String(failed.id) }),
    });
    expect(retried.status).toBe(302);
    const [row] = sql<{ status: string }>(
      `SELECT status FROM webhook_deliveries WHERE id = ${failed.id}`,
    );
    // Back in the queue (the worker may already have tried it again: pending either way, the
    // receiver still redirects).
    expect(row.status).toBe("pending");
    const sent = sql<{ id: number }>("SELECT id FROM webhook_deliveries WHERE status = 'sent'")[0];
    const refused = await server.fetch("/admin/settings/outbox", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ webhookDelivery: String(sent.id) }),
    });
    expect(refused.status).toBe(302);
    expect(
      sql<{ status: string }>(`SELECT status FROM webhook_deliveries WHERE id = ${sent.id}`)[0]
        .status,
    ).toBe("sent");

    // The requests page (HTML form, no JS) changes the status through the same rule: it emits too.
    await patchWebhooks([
      {
        id: "html",
        url: `${receiver.url}/html`,
        events: ["request.status_changed"],
        secret: SECRET,
      },
    ]);
    const id = await submit("Ida Formular");
    const changed = await server.fetch(`/admin/requests?requestId=${id}`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ intent: "status", id: String(id), status: "Done" }),
    });
    expect(changed.status).toBeLessThan(400);
    await server.drainWebhooks();
    const hooks = receiver.received.filter((r) => r.path === "/html");
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0].body)).toMatchObject({
      event: "request.status_changed",
      data: { id, status: "Done" },
    });
  });
});
