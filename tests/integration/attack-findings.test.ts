// Findings of the attack review of issues 25-27: each test fails on the defect it names.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { appointments, requests, webhookDeliveries } from "~db/schema";
import { insertAdmin } from "./auth-helpers";
import { mswListenOptions, setupMocks, startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let receiver: Server;
const msw = setupMocks();

function seedQuarantined(name: string) {
  const email = `${name.toLowerCase()}@example.com`;
  return db()
    .insert(requests)
    .values({
      name,
      email,
      emailKey: email,
      phone: "+49 30 1234 5678",
      companyDescription: `Firma von ${name}`,
      description: `Eine App für ${name}.`,
      visitorSecretHash: "a".repeat(64),
      quarantinedAt: new Date(),
    })
    .returning()
    .get().id;
}

beforeAll(async () => {
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  msw.listen(mswListenOptions);
  server = await startTestServer({ WEBHOOK_ALLOW_LOCAL: "true" });
  token = await server.adminToken();
  const port = (receiver.address() as AddressInfo).port;
  const saved = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      webhooks: [
        {
          id: "crm",
          url: `http://127.0.0.1:${port}/crm`,
          events: ["request.created", "appointment.booked", "appointment.cancelled"],
          secret: "geheim-0123456789-abcdef",
          format: "json",
        },
      ],
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
});
afterAll(async () => {
  msw.close();
  await server.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("quarantine leaks (issue 26)", () => {
  it("cancelling a quarantined request's booking fires no appointment.cancelled webhook", async () => {
    const id = seedQuarantined("Bot");
    const appointment = db()
      .insert(appointments)
      .values({
        requestId: id,
        provider: "builtin",
        externalUid: `attack-${id}`,
        eventTypeKey: "demo",
        eventTypeName: "Demo",
        startTime: new Date(Date.now() + 5 * 86_400_000),
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
    const queued = db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.requestId, id))
      .all();
    expect(queued.map((d) => d.event)).toEqual([]);
  });
});

describe("password step-up with a session (issue 27)", () => {
  it("a session cannot guess the password without limit through the step-up checks", async () => {
    const petra = await insertAdmin("petra");
    const session = await server.adminToken("petra", petra.password);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await server.fetch("/api/admin/api-tokens", {
        method: "POST",
        token: session,
        json: { name: "n8n", scopes: ["requests:read"], password: `geraten-${i}` },
      });
      statuses.push(res.status);
    }
    // Like failed logins (10 per account in 15 minutes), wrong passwords here end in a 429.
    expect(statuses).toContain(429);
  });

  it("a session cannot guess the TOTP code without limit (2FA disable takes password and code)", async () => {
    const quinn = await insertAdmin("quinn");
    const session = await server.adminToken("quinn", quinn.password);
    const setup = await server.fetch("/api/admin/account/2fa/setup", {
      method: "POST",
      token: session,
      json: { password: quinn.password },
    });
    const { secret } = (await setup.json()) as { secret: string };
    const code = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
    const enabled = await server.fetch("/api/admin/account/2fa/enable", {
      method: "POST",
      token: session,
      json: { code },
    });
    expect(enabled.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await server.fetch("/api/admin/account/2fa/disable", {
        method: "POST",
        token: session,
        json: { password: quinn.password, code: String(100000 + i) },
      });
      statuses.push(res.status);
    }
    // The login's code step answers 429 after 5 wrong codes; the same secret here never does.
    expect(statuses).toContain(429);
  });
});

describe("scoped API tokens (issue 27)", () => {
  it("a requests:read token learns nothing about the admin accounts from /api/admin/stats", async () => {
    const created = await server.fetch("/api/admin/api-tokens", {
      method: "POST",
      token,
      json: { name: "crm", scopes: ["requests:read"], password: "admin-passwort" },
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

// Runs last: it switches "2FA für alle" on, which leaves the file's admin owing enrolment.
describe("enrolment-required state (issue 27)", () => {
  it("a session that owes enrolment cannot switch the requirement off for everyone", async () => {
    const on = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      // Changing the rule needs the step-up (ADR 315).
      json: { security: { requireTwoFactor: true }, stepUp: { password: "admin-passwort" } },
    });
    expect(on.status).toBe(200);
    // A stolen password of an admin without 2FA: the login leads to the enrolment only.
    const mallory = await insertAdmin("mallory");
    const cookie = await server.adminCookie("mallory", mallory.password);
    expect((await server.fetch("/admin/requests", { headers: { cookie } })).status).toBe(302);
    // ... but the account page's form action takes every intent, also the setting for all admins.
    await server.fetch("/admin/account", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "2fa-require" }).toString(),
    });
    const nora = await insertAdmin("nora");
    const login = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      json: { username: "nora", password: nora.password },
    });
    expect((await login.json()).admin).toMatchObject({ mfaEnrollmentRequired: true });
    // and mallory herself is through to the leads without ever enrolling
    expect((await server.fetch("/admin/requests", { headers: { cookie } })).status).toBe(302);
  });
});
