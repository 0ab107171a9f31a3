// Spam defence, the visitor side (ADR 250/251): a submission with a valid ALTCHA solution
// takes the normal flow (mail, request.created webhook, AI summary); without one (missing, forged,
// expired, replayed) or on the blocklist it is stored and answered like any other but quarantined:
// no mail after drainOutbox, no webhook delivery, no call to the Anthropic stand-in.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { solveAltcha, solvedAltcha } from "../altcha-solution";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { startSmtpInbox } from "../smtp-inbox";
import { testDb } from "./auth-helpers";
import { validFields as fixtureFields, multipart } from "./landing-fixtures";
import { mswListenOptions, setupMocks } from "./msw";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let receiver: Server;
const deliveries: { event: string; id: number }[] = [];
/** The prompts sent to the Anthropic stand-in (by the server's job or the test's own run). */
const aiPrompts: string[] = [];
const msw = setupMocks();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      deliveries.push({ event: body.event, id: body.data?.id });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  inbox = await startSmtpInbox();
  msw.listen(mswListenOptions);
  msw.use(
    http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
      aiPrompts.push(await request.text());
      return HttpResponse.json(anthropicText("Zusammenfassung"));
    }),
  );
  server = await startTestServer({
    SMTP_URL: inbox.url,
    SUBMISSION_RATE_LIMIT: "100/1h",
    ANTHROPIC_API_KEY: "test-key",
  });
  token = await server.adminToken();
  const admin = sql<{ id: number; username: string }>("SELECT id, username FROM admins")[0];
  const port = (receiver.address() as AddressInfo).port;
  const saved = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      emailNotifications: {
        enabled: true,
        adminEmails: [{ id: admin?.id, username: admin?.username, email: "team@example.com" }],
      },
      webhooks: [
        {
          id: "crm",
          url: `http://127.0.0.1:${port}/crm`,
          events: ["request.created"],
          secret: "geheim-0123456789-abcdef",
          format: "json",
        },
      ],
    },
  });
  expect(saved.status).toBe(200);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  msw.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  delete process.env.ANTHROPIC_API_KEY;
});

/** Valid fields with a description of their own (it identifies the request's AI prompt). */
const validFields = (overrides: Record<string, string> = {}) =>
  fixtureFields({
    description: `Eine App für Vorbestellungen, Anfrage ${Math.random().toString(36).slice(2)}.`,
    ...overrides,
  });

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}

const quarantinedAt = (id: number) =>
  sql<{ q: number | null }>("SELECT quarantined_at AS q FROM requests WHERE id = ?", id)[0]?.q;

async function submit(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    headers,
    body: multipart(fields),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as Record<string, unknown> & { id: number; email: string };
  return { res, body };
}

/** Every side effect of the new-request flow, after the outbox, the webhooks and the AI job ran. */
async function effectsOf(id: number, email: string) {
  await server.drainOutbox();
  await server.drainWebhooks();
  const { summarizePending } = await import("~/server/ai/request-ai.server");
  await summarizePending(50);
  const row = sql<{ d: string }>("SELECT description AS d FROM requests WHERE id = ?", id)[0];
  const summary = sql<{ s: string | null }>("SELECT summary AS s FROM requests WHERE id = ?", id)[0]
    ?.s;
  return {
    mails: inbox.mails.filter(
      // The receipt goes to the visitor; the team's notification names the visitor's address.
      (m) => m.to.includes(email) || m.text.includes(email),
    ).length,
    queued: sql<{ n: number }>("SELECT count(*) AS n FROM mail_outbox WHERE request_id = ?", id)[0]
      ?.n,
    webhooks: deliveries.filter((d) => d.id === id).length,
    aiCalls: aiPrompts.filter(
      (prompt) => row && prompt.includes(JSON.stringify(row.d).slice(1, -1)),
    ).length,
    summary,
  };
}

describe("GET /api/altcha/challenge", () => {
  it("answers a signed PoW v2 challenge, not cached, expiring in 10 minutes", async () => {
    const res = await server.fetch("/api/altcha/challenge");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const challenge = await res.json();
    expect(Object.keys(challenge).sort()).toEqual(["parameters", "signature"]);
    expect(challenge.parameters.algorithm).toBe("PBKDF2/SHA-256");
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    const ttl = challenge.parameters.expiresAt - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    const other = await (await server.fetch("/api/altcha/challenge")).json();
    expect(other.parameters.nonce).not.toBe(challenge.parameters.nonce);
  });
});

describe("the verdict at submission", () => {
  it("a valid solution takes the normal flow: mail, request.created webhook, AI summary", async () => {
    const fields = validFields({ altcha: await solvedAltcha(server.url) });
    const { body } = await submit(fields);
    expect(quarantinedAt(body.id)).toBeNull();
    const effects = await effectsOf(body.id, fields.email as string);
    expect(effects.mails).toBeGreaterThanOrEqual(2); // the team's notification and the receipt
    expect(effects.webhooks).toBe(1);
    expect(effects.aiCalls).toBeGreaterThanOrEqual(1);
    expect(effects.summary).toBe("Zusammenfassung");
  });

  const forgedPayloads: [string, () => Promise<string>][] = [
    ["missing", async () => ""],
    ["not a payload", async () => "kein-altcha"],
    [
      "a tampered solution",
      async () => {
        const payload = JSON.parse(
          Buffer.from(await solvedAltcha(server.url), "base64").toString("utf8"),
        );
        payload.solution.counter += 1;
        payload.solution.derivedKey = "00".repeat(32);
        return Buffer.from(JSON.stringify(payload)).toString("base64");
      },
    ],
    [
      "a challenge signed with another key",
      async () =>
        solveAltcha(
          await createChallenge({
            algorithm: "PBKDF2/SHA-256",
            cost: 10,
            counter: 5,
            deriveKey,
            expiresAt: Math.floor(Date.now() / 1000) + 600,
            hmacSignatureSecret: "fremder-schluessel",
            hmacKeySignatureSecret: "noch-ein-fremder",
          }),
        ),
    ],
  ];
  for (const [label, payload] of forgedPayloads) {
    it(`${label}: stored, answered 201 like any other, quarantined without side effects`, async () => {
      const altcha = await payload();
      const fields = validFields(altcha ? { altcha } : {});
      const { body } = await submit(fields);
      expect(quarantinedAt(body.id)).toEqual(expect.any(Number));
      expect(await effectsOf(body.id, fields.email as string)).toEqual({
        mails: 0,
        queued: 0,
        webhooks: 0,
        aiCalls: 0,
        summary: null,
      });
    });
  }

  it("an expired solution (10 minutes later) is quarantined", async () => {
    const altcha = await solvedAltcha(server.url);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * 60_000 + 5_000);
    const fields = validFields({ altcha });
    const { body } = await submit(fields);
    vi.useRealTimers();
    expect(quarantinedAt(body.id)).toEqual(expect.any(Number));
    const effects = await effectsOf(body.id, fields.email as string);
    expect([effects.mails, effects.queued, effects.webhooks, effects.aiCalls]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("a replayed solution is quarantined; the first submission keeps the normal flow", async () => {
    const altcha = await solvedAltcha(server.url);
    const first = await submit(validFields({ altcha }));
    const replayFields = validFields({ altcha });
    const replay = await submit(replayFields);
    expect(quarantinedAt(first.body.id)).toBeNull();
    expect(quarantinedAt(replay.body.id)).toEqual(expect.any(Number));
    const effects = await effectsOf(replay.body.id, replayFields.email as string);
    expect([effects.mails, effects.queued, effects.webhooks, effects.aiCalls]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("a refused submission does not use the solution up", async () => {
    const altcha = await solvedAltcha(server.url);
    const refused = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ altcha, email: "keine-adresse" })),
    });
    expect(refused.status).toBe(400);
    const { body } = await submit(validFields({ altcha }));
    expect(quarantinedAt(body.id)).toBeNull();
  });

  it("a retry with the same Idempotency-Key gets the first answer before any replay check", async () => {
    const fields = validFields({ altcha: await solvedAltcha(server.url) });
    const headers = { "Idempotency-Key": `spam-${Date.now()}` };
    const first = await submit(fields, headers);
    const retry = await submit(fields, headers);
    expect(retry.body).toEqual(first.body);
    expect(quarantinedAt(first.body.id)).toBeNull();
    const stored = sql<{ n: number }>(
      "SELECT count(*) AS n FROM requests WHERE email = ?",
      fields.email,
    )[0]?.n;
    expect(stored).toBe(1);
  });

  it("accepts the solution url-encoded and through the page's no-JS action too", async () => {
    const fields = validFields({ altcha: await solvedAltcha(server.url) });
    const res = await server.fetch("/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    expect(res.status).toBe(303);
    const id = Number(
      new URL(res.headers.get("location") ?? "", server.url).searchParams.get("gesendet"),
    );
    expect(quarantinedAt(id)).toBeNull();
  });
});

describe("the blocklist", () => {
  const block = (blocklist: string[]) =>
    server.fetch("/api/configuration", { method: "PATCH", token, json: { spam: { blocklist } } });
  afterEach(async () => {
    await block([]);
  });

  const cases: [string, string[], Record<string, string>][] = [
    ["an e-mail address", ["blockiert@example.com"], { email: "Blockiert@example.com" }],
    ["a domain wildcard", ["*.spam.test"], { email: "bot@mail.spam.test" }],
    ["a CIDR range of the client address", ["127.0.0.0/8", "::1/128"], {}],
  ];
  for (const [label, list, overrides] of cases) {
    it(`${label} quarantines even with a valid solution`, async () => {
      expect((await block(list)).status).toBe(200);
      const fields = validFields({ ...overrides, altcha: await solvedAltcha(server.url) });
      const { body } = await submit(fields);
      expect(quarantinedAt(body.id)).toEqual(expect.any(Number));
      const effects = await effectsOf(body.id, fields.email as string);
      expect([effects.mails, effects.queued, effects.webhooks, effects.aiCalls]).toEqual([
        0, 0, 0, 0,
      ]);
    });
  }

  it("is admin configuration only: refused when invalid, never in the public configuration", async () => {
    const bad = await block(["kein eintrag"]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("spam.blocklist.0");
    expect((await block(["192.0.2.0/24", "*@spam.test"])).status).toBe(200);
    const stored = await (await server.fetch("/api/configuration", { token })).json();
    expect(stored.spam).toEqual({
      blocklist: ["192.0.2.0/24", "*@spam.test"],
      quarantineDays: 30,
      heldBookingsPerDay: 3,
    });
    const publicConfig = await (await server.fetch("/api/configuration")).text();
    expect(publicConfig).not.toContain("spam");
    expect(publicConfig).not.toContain("192.0.2.0");
  });
});

describe("the visitor learns nothing", () => {
  it("the same 201 body shape, Location, history cookie and success page with and without quarantine", async () => {
    const normal = await submit(validFields({ altcha: await solvedAltcha(server.url) }));
    const held = await submit(validFields());
    expect(quarantinedAt(held.body.id)).toEqual(expect.any(Number));
    expect(Object.keys(held.body).sort()).toEqual(Object.keys(normal.body).sort());
    expect(JSON.stringify(held.body)).not.toMatch(/quarant|spam|prüf/i);
    expect(held.res.headers.get("location")).toBe(`/api/requests/${held.body.id}`);
    const cookie = (held.res.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(cookie).toMatch(/=/);

    // The no-JS answer: the same success page with the history — and, since ADR 326, the
    // script-free question that can take the request out of the quarantine (never a word of spam).
    const page = await server.fetch("/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(validFields({ name: "Paula Prüfling" })).toString(),
    });
    expect(page.status).toBe(303);
    const location = page.headers.get("location") ?? "";
    expect(location).toMatch(/^\/\?gesendet=\d+&pruefung=[\w.-]+#frage$/);
    const heldId = Number(new URL(location, server.url).searchParams.get("gesendet"));
    expect(quarantinedAt(heldId)).toEqual(expect.any(Number));
    const history = (page.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const html = await (await server.fetch(location, { headers: { cookie: history } })).text();
    expect(html).toContain("Paula Prüfling");
    expect(html).toContain("Eine kurze Frage noch");
    expect(html).not.toMatch(/quarant|\bspam\b/i);
  });
});
