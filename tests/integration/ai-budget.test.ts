// The AI budgets (ADRs 255, 318). Every AI call takes one of the Berlin day's budget of
// its kind in SQLite: automatic summaries stop at `ai.dailyLimit` and wait for the next day
// (without using up their attempts), the admins' manual actions answer 429 in German beyond
// `ai.manualDailyLimit`, parallel calls let exactly the limit through, and the count survives a
// restart. Fake clock: only Date is faked.
import { isNull } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { patchConfiguration } from "~/server/configuration/configuration.server";
import { closeDb, db } from "~/server/platform/db.server";
import { aiBudget, countToday } from "~/server/spam/budgets.server";
import { requests } from "~db/schema";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { mswListenOptions, setupMocks } from "./msw";

const msw = setupMocks();
let calls = 0;
beforeAll(() => {
  process.env.ANTHROPIC_API_KEY = "test-key";
  msw.listen(mswListenOptions);
});
afterAll(() => {
  msw.close();
  delete process.env.ANTHROPIC_API_KEY;
});
afterEach(() => {
  vi.useRealTimers();
});

function countCalls(answer = "Eine kurze Zusammenfassung.") {
  calls = 0;
  msw.use(
    http.post(`${ANTHROPIC_URL}/v1/messages`, () => {
      calls++;
      return HttpResponse.json(anthropicText(answer));
    }),
  );
}

function seed(n: number) {
  return Array.from(
    { length: n },
    (_, i) =>
      db()
        .insert(requests)
        .values({
          name: `Kundin ${i}`,
          email: `kundin${i}@example.com`,
          phone: "+49 89 1234",
          companyDescription: "Ein Fahrradladen mit Werkstatt",
          description: "Online-Terminbuchung für Reparaturen.",
        })
        .returning()
        .get().id,
  );
}

const setLimit = (dailyLimit: number, manualDailyLimit = dailyLimit) => {
  const saved = patchConfiguration({ ai: { dailyLimit, manualDailyLimit } });
  expect(saved.ok).toBe(true);
};
const missing = () => db().select().from(requests).where(isNull(requests.summary)).all();

describe("AI daily budget (ai.dailyLimit)", () => {
  it("defaults to 200 summaries and 100 manual actions a day", async () => {
    expect(aiBudget().limit).toBe(200);
    expect(aiBudget(new Date(), "manual").limit).toBe(100);
  });

  it("summarises at most the limit a Berlin day; the rest wait for the next day", async () => {
    const { summarizePending } = await import("~/server/ai/request-ai.server");
    vi.useFakeTimers({ toFake: ["Date"] });
    // 22:30 in Berlin (CET).
    vi.setSystemTime(new Date("2026-03-10T21:30:00Z"));
    setLimit(3, 0);
    countCalls();
    seed(5);
    expect(await summarizePending(10)).toBe(3);
    expect(calls).toBe(3);
    expect(aiBudget()).toEqual({ used: 3, limit: 3, exhausted: true });
    // The two left wait, their attempts untouched (they are not failures).
    expect(missing().map((r) => r.summaryAttempts)).toEqual([0, 0]);
    expect(await summarizePending(10)).toBe(0);
    expect(calls).toBe(3);

    // Manual actions beyond their own limit (here 0): 429 with a German message, nothing sent.
    const { runAutomatedPreparation, runCodingPrompt } = await import(
      "~/server/ai/request-ai.server"
    );
    const [id] = missing().map((r) => r.id);
    const prepared = await runAutomatedPreparation(id as number);
    expect(prepared).toMatchObject({ ok: false, status: 429 });
    if (!prepared.ok)
      expect(prepared.error).toMatch(
        /^Das Tageslimit für Ihre KI-Aktionen ist erreicht \(0 pro Tag\)/,
      );
    expect(await runCodingPrompt(id as number)).toMatchObject({ ok: false, status: 429 });
    expect(calls).toBe(3);

    // 23:59:59 in Berlin: still the same day.
    vi.setSystemTime(new Date("2026-03-10T22:59:59Z"));
    expect(await summarizePending(10)).toBe(0);
    // Midnight in Berlin (23:00 UTC): a new day, a new budget; the two waiting ones are written.
    vi.setSystemTime(new Date("2026-03-10T23:00:00Z"));
    expect(aiBudget()).toEqual({ used: 0, limit: 3, exhausted: false });
    expect(await summarizePending(10)).toBe(2);
    expect(missing()).toHaveLength(0);
    expect(countToday("ai-calls")).toBe(2);
    expect(calls).toBe(5);
  });

  it("lets exactly the limit through when manual actions run in parallel, and keeps the count over a restart", async () => {
    const { runCodingPrompt } = await import("~/server/ai/request-ai.server");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-04-01T08:00:00Z"));
    setLimit(4);
    countCalls("Baue eine Testversion.");
    const [id] = seed(1);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => runCodingPrompt(id as number)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(8);
    expect(calls).toBe(4);

    // A restart (the database closed and opened again) forgets nothing.
    closeDb();
    expect(aiBudget(new Date(), "manual")).toEqual({ used: 4, limit: 4, exhausted: true });
    // The manual calls never took from the summaries' budget.
    expect(aiBudget()).toEqual({ used: 0, limit: 4, exhausted: false });
    expect(await runCodingPrompt(id as number)).toMatchObject({ ok: false, status: 429 });
    // A raised limit applies at once.
    setLimit(5);
    expect(await runCodingPrompt(id as number)).toMatchObject({ ok: true, source: "ai" });
    expect(calls).toBe(5);
  });
});
