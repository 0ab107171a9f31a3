// ADRs 255, 318 over HTTP: `ai.dailyLimit` through /api/configuration, the 429 of manual AI actions,
// the note on a summary that waits for tomorrow, the booking still succeeding while its
// invitation mail waits for the address's hour, and the metrics of both budgets.

import { and, eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { register } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { db } from "~/server/platform/db.server";
import { registerAppMetrics } from "~/server/platform/metrics.server";
import { mailOutbox, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { multipart, validFields } from "./landing-fixtures";
import { mswListenOptions, setupMocks } from "./msw";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let calls = 0;
const msw = setupMocks();

beforeAll(async () => {
  msw.listen(mswListenOptions);
  msw.use(
    http.post(`${ANTHROPIC_URL}/v1/messages`, () => {
      calls++;
      return HttpResponse.json(anthropicText("Zusammenfassung"));
    }),
  );
  server = await startTestServer({ ANTHROPIC_API_KEY: "test-key" });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  msw.close();
  delete process.env.ANTHROPIC_API_KEY;
});

const patchLimit = (dailyLimit: unknown, manualDailyLimit?: unknown) =>
  server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: { ai: { dailyLimit, ...(manualDailyLimit === undefined ? {} : { manualDailyLimit }) } },
  });

async function sample(name: string) {
  registerAppMetrics();
  const metric = await register.getSingleMetric(name)?.get();
  return metric?.values.map((v) => [v.labels, v.value]);
}

describe("AI budget over /api", () => {
  it("reads and sets ai.dailyLimit (clamped) and answers manual actions beyond it with 429", async () => {
    const config = await (await server.fetch("/api/configuration", { token })).json();
    // The visitors' summaries and the admins' own actions have a budget each (ADR 318).
    expect(config.ai).toEqual({ dailyLimit: 200, manualDailyLimit: 100 });
    // Visitors never see it.
    expect((await (await server.fetch("/api/configuration")).json()).ai).toBeUndefined();

    expect((await (await patchLimit(-5, -5)).json()).configuration.ai).toEqual({
      dailyLimit: 0,
      manualDailyLimit: 0,
    });
    const put = await server.fetch("/api/configuration", {
      method: "PUT",
      token,
      json: { ...config, ai: { dailyLimit: 0, manualDailyLimit: 0 } },
    });
    expect(put.status).toBe(200);

    const id = db()
      .insert(requests)
      .values({
        name: "Anna",
        email: "anna@example.com",
        phone: "+49 30 1234",
        companyDescription: "Bäckerei",
        description: "Eine App für Vorbestellungen.",
        // Out of the background summaries' reach: every AI call of this test is a manual one.
        summaryAttempts: 3,
      })
      .returning()
      .get().id;
    calls = 0;
    for (const action of ["automated-preparation", "cursor-prompt"]) {
      const res = await server.fetch(`/api/requests/${id}/${action}`, {
        method: "POST",
        token,
        json: {},
      });
      expect(res.status).toBe(429);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.message).toBe(
        "Das Tageslimit für Ihre KI-Aktionen ist erreicht (0 pro Tag). Ab Mitternacht geht es weiter – bis dahin können Sie die Felder von Hand ausfüllen.",
      );
    }
    expect(calls).toBe(0);

    // The request's summary waits for tomorrow, and the page says so.
    const cookie = await server.adminCookie();
    const page = await (
      await server.fetch(`/admin/requests?requestId=${id}`, { headers: { cookie } })
    ).text();
    expect(page).toContain("Zusammenfassung folgt morgen (Tageslimit der KI erreicht).");
    expect(await sample("anfrage_ai_daily_limit")).toEqual([[{}, 0]]);

    // Raised limits: the action runs, the call is counted.
    expect((await patchLimit(10, 10)).status).toBe(200);
    const ok = await server.fetch(`/api/requests/${id}/cursor-prompt`, {
      method: "POST",
      token,
      json: {},
    });
    expect(ok.status).toBe(200);
    expect(calls).toBe(1);
    expect(await sample("anfrage_ai_calls_today")).toEqual([[{}, 1]]);
    const again = await (
      await server.fetch(`/admin/requests?requestId=${id}`, { headers: { cookie } })
    ).text();
    expect(again).not.toContain("Zusammenfassung folgt morgen");
  });
});

describe("booking invitation budget", () => {
  it("books twice for one address within the hour: both succeed, the second invitation waits", async () => {
    const visitor = async () => {
      const res = await server.fetch("/api/requests", {
        method: "POST",
        body: multipart({
          ...validFields(),
          email: "lea@example.com",
          altcha: await solvedAltcha(server.url),
        }),
      });
      expect(res.status).toBe(201);
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
      return { id: ((await res.json()) as { id: number }).id, cookie };
    };
    const day = firstBookableDay(1);
    let slots: string[] = [];
    for (let d = day, i = 0; slots.length < 2 && i < 14; i++) {
      const res = await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: d, day: d },
      });
      slots = ((await res.json()).slots as { time: string }[]).map((s) => s.time);
      d = new Date(new Date(`${d}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
    }
    const before = Date.now();
    for (const [i, who] of [await visitor(), await visitor()].entries()) {
      const res = await server.fetch("/api/calcom/book-appointment", {
        method: "POST",
        headers: { cookie: who.cookie },
        json: { requestId: who.id, startTime: slots[i], timeZone: "Europe/Berlin" },
      });
      expect(res.status).toBe(201);
    }
    const invitations = db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, "booking-confirmation"), eq(mailOutbox.to, "lea@example.com")))
      .all();
    expect(invitations).toHaveLength(2);
    const [first, second] = invitations.map((m) => m.nextAttemptAt.getTime()) as [number, number];
    expect(first).toBeLessThanOrEqual(Date.now());
    expect(second).toBeGreaterThanOrEqual(before + 3600_000);
    expect(await sample("anfrage_mails_held_by_budget_today")).toEqual([
      [{ budget: "booking_invitation" }, 1],
    ]);
  });
});

describe("quarantine metric", () => {
  it("counts the requests in the quarantine", async () => {
    // Every stored request quarantined: the gauge counts them all (some came in without a proof
    // of work and were quarantined already).
    db().update(requests).set({ quarantinedAt: new Date() }).run();
    const all = db().select().from(requests).all().length;
    expect(all).toBeGreaterThan(0);
    expect(await sample("anfrage_requests_quarantined")).toEqual([[{}, all]]);
  });
});
