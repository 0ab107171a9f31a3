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
