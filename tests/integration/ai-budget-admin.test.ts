import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { multipart, validFields } from "./landing-fixtures";
import { mswListenOptions, setupMocks } from "./msw";
import { startTestServer, type TestServer } from "./server";

// Visitors' requests start the automatic AI summaries; they must not use up what the admins' own
// AI actions ("Automatisch vorbereiten", the coding prompt) need (ADR 318): the manual actions
// have a budget of their own, `ai.manualDailyLimit`, counted atomically like `ai.dailyLimit`.

let server: TestServer;
let token: string;
let calls = 0;
const msw = setupMocks();

beforeAll(async () => {
  msw.listen(mswListenOptions);
  msw.use(
    http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
      calls++;
      const body = (await request.json()) as {
        tools?: { name: string; input_schema: { properties: Record<string, unknown> } }[];
      };
      const tool = body.tools?.[0];
      if (!tool) return HttpResponse.json(anthropicText("Zusammenfassung"));
      // "Automatisch vorbereiten" forces its tool: one text per field.
      const input = Object.fromEntries(
        Object.keys(tool.input_schema.properties).map((name) => [name, `Text für ${name}`]),
      );
      return HttpResponse.json({
        ...anthropicText(""),
        content: [{ type: "tool_use", id: "toolu_test", name: tool.name, input }],
        stop_reason: "tool_use",
      });
    }),
  );
  server = await startTestServer({
    ANTHROPIC_API_KEY: "test-key",
    SPAM_PROTECTION: "off",
    SUBMISSION_RATE_LIMIT: "1000/1h",
  });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  msw.close();
  for (const key of ["ANTHROPIC_API_KEY", "SPAM_PROTECTION", "SUBMISSION_RATE_LIMIT"])
    delete process.env[key];
});

async function visitorRequest() {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields()),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const manual = (id: number, action: "automated-preparation" | "cursor-prompt") =>
  server.fetch(`/api/admin/requests/${id}/${action}`, { method: "POST", token, json: {} });

describe("the admins' AI actions have their own budget", () => {
  it("visitors' summaries use up the daily AI budget; the manual actions still run", async () => {
    const config = await (await server.fetch("/api/configuration", { token })).json();
    expect(config.ai).toEqual({ dailyLimit: 200, manualDailyLimit: 100 });
    const set = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { ai: { dailyLimit: 2, manualDailyLimit: 3 } },
    });
    expect(set.status).toBe(200);
    const ids = [await visitorRequest(), await visitorRequest(), await visitorRequest()];
    calls = 0;
    expect(await server.testHooks.drainSummaries()).toBe(2);
    expect(calls).toBe(2);

    // The third summary waits for tomorrow; the admin's action does not.
    const id = ids[2] as number;
    const prepared = await manual(id, "automated-preparation");
    expect(prepared.status).toBe(200);
    expect(calls).toBe(3);
    expect(await server.testHooks.drainSummaries()).toBe(0);
    expect(calls).toBe(3);
    const cookie = await server.adminCookie();
    const page = await (
      await server.fetch(`/admin/requests?requestId=${id}`, { headers: { cookie } })
    ).text();
    expect(page).toContain("Zusammenfassung folgt morgen (Tageslimit der KI erreicht).");
  });

  it("lets exactly the manual limit through in parallel, then 429 in German", async () => {
    const id = await visitorRequest();
    calls = 0;
    // One of the three was used above: two are left for six parallel calls.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        manual(id, i % 2 ? "cursor-prompt" : "automated-preparation"),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(calls).toBe(2);
    const refused = await answers.find((a) => a.status === 429)?.json();
    expect(refused.message).toBe(
      "Das Tageslimit für Ihre KI-Aktionen ist erreicht (3 pro Tag). Ab Mitternacht geht es weiter – bis dahin können Sie die Felder von Hand ausfüllen.",
    );
    // The visitors' summaries never take from it: the automatic budget alone stays spent.
    expect(await server.testHooks.drainSummaries()).toBe(0);
    expect(calls).toBe(2);
  });
});
