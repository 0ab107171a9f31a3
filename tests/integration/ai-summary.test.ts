import { eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { mswListenOptions, setupMocks } from "./msw";

const msw = setupMocks();
beforeAll(() => {
  process.env.ANTHROPIC_API_KEY = "test-key";
  msw.listen(mswListenOptions);
});
afterAll(() => {
  msw.close();
  delete process.env.ANTHROPIC_API_KEY;
});

function seed() {
  return db()
    .insert(requests)
    .values({
      name: "Sara",
      email: "sara@example.com",
      phone: "+49 89 1234",
      companyDescription: "Ein Fahrradladen mit Werkstatt in München",
      description: "Online-Terminbuchung für Reparaturen.",
    })
    .returning()
    .get();
}

describe("background summaries", () => {
  it("writes a German summary for new requests and retries later when the AI is down", async () => {
    const { summarizePending } = await import("~/server/ai/request-ai.server");
    const first = seed();
    msw.use(
      http.post(`${ANTHROPIC_URL}/v1/messages`, () =>
        HttpResponse.json(
          { type: "error", error: { type: "overloaded_error", message: "busy" } },
          { status: 529 },
        ),
      ),
    );
    expect(await summarizePending()).toBe(0);
    const afterFailure = db().select().from(requests).where(eq(requests.id, first.id)).get();
    expect(afterFailure?.summary).toBeNull();
    expect(afterFailure?.summaryAttempts).toBe(1);

    msw.use(
      http.post(`${ANTHROPIC_URL}/v1/messages`, () =>
        HttpResponse.json(
          anthropicText("Ein Fahrradladen möchte Reparaturtermine online vergeben."),
        ),
      ),
    );
    expect(await summarizePending()).toBe(1);
    expect(db().select().from(requests).where(eq(requests.id, first.id)).get()?.summary).toBe(
      "Ein Fahrradladen möchte Reparaturtermine online vergeben.",
    );
    // Nothing left to do.
    expect(await summarizePending()).toBe(0);
  });
});

describe("a summary that is not plain text", () => {
  it("is discarded and asked for again; one stored before is never shown", async () => {
    const { summarizePending } = await import("~/server/ai/request-ai.server");
    // Alone in the table: the round asks about this request only.
    db().delete(requests).run();
    const row = seed();
    const answers = [
      "{}",
      '{"summary":"Ein Fahrradladen"}',
      "Ein Fahrradladen vergibt Termine online.",
    ];
    let calls = 0;
    msw.use(
      http.post(`${ANTHROPIC_URL}/v1/messages`, () =>
        HttpResponse.json(anthropicText(answers[Math.min(calls++, answers.length - 1)] as string)),
      ),
    );
    // `{}` and a JSON object: discarded, each attempt counted, nothing stored.
    expect(await summarizePending()).toBe(0);
    const first = db().select().from(requests).where(eq(requests.id, row.id)).get();
    expect(first).toMatchObject({ summary: null, summaryAttempts: 1 });
    expect(await summarizePending()).toBe(0);
    expect(db().select().from(requests).where(eq(requests.id, row.id)).get()).toMatchObject({
      summary: null,
      summaryAttempts: 2,
    });
    // The next answer is prose: stored.
    expect(await summarizePending()).toBe(1);
    expect(db().select().from(requests).where(eq(requests.id, row.id)).get()?.summary).toBe(
      "Ein Fahrradladen vergibt Termine online.",
    );
    expect(calls).toBe(3);

    // A `{}` stored before this rule: the JSON says null, the list and CSV show the description.
    db().update(requests).set({ summary: "{}" }).where(eq(requests.id, row.id)).run();
    const { loadRequestJson } = await import("~/server/requests/serialize.server");
    expect(loadRequestJson(row.id)?.summary).toBeNull();
    const { summaryOf, summaryPreview } = await import("~/lib/format");
    expect(summaryOf({ summary: "{}", description: "Online-Terminbuchung." })).toBe(
      "Online-Terminbuchung.",
    );
    expect(summaryPreview({ summary: "[]", description: "Online-Terminbuchung." })).toBe(
      "Online-Terminbuchung.",
    );
  });

  it("a JSON answer does not stop the round: the next request still gets its summary", async () => {
    const { summarizePending } = await import("~/server/ai/request-ai.server");
    db().delete(requests).run();
    const a = seed();
    const b = seed();
    db()
      .update(requests)
      .set({ description: "Erste Anfrage: Termine." })
      .where(eq(requests.id, a.id))
      .run();
    msw.use(
      http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
        const body = (await request.json()) as { messages: { content: string }[] };
        // The first request's call answers `{}`, every other one prose.
        const first = body.messages[0]?.content.includes("Erste Anfrage");
        return HttpResponse.json(anthropicText(first ? "{}" : "Werkstatt mit Terminbuchung."));
      }),
    );
    expect(await summarizePending()).toBeGreaterThanOrEqual(1);
    expect(db().select().from(requests).where(eq(requests.id, b.id)).get()?.summary).toBe(
      "Werkstatt mit Terminbuchung.",
    );
  });
});
