import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { ANTHROPIC_URL, anthropicText } from "../mocks/anthropic";
import { mswListenOptions, setupMocks } from "./msw";

const msw = setupMocks();
const bodies: string[] = [];
beforeAll(() => {
  process.env.ANTHROPIC_API_KEY = "test-key";
  msw.listen(mswListenOptions);
  msw.use(
    http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
      const body = await request.text();
      bodies.push(body);
      const parsed = JSON.parse(body) as { tools?: { name: string }[] };
      if (parsed.tools?.length) {
        return HttpResponse.json({
          ...anthropicText(""),
          content: [
            { type: "tool_use", id: "t1", name: parsed.tools[0].name, input: { ziel: "Ein Ziel" } },
          ],
          stop_reason: "tool_use",
        });
      }
      return HttpResponse.json(anthropicText("Eine Zusammenfassung."));
    }),
  );
});
afterAll(() => {
  msw.close();
  delete process.env.ANTHROPIC_API_KEY;
});

describe("AI requests carry no contact data", () => {
  it("summary, preparation and coding prompt send the request text but no name, e-mail or phone", async () => {
    const { summarizePending, runAutomatedPreparation, runCodingPrompt } = await import(
      "~/server/ai/request-ai.server"
    );
    saveConfiguration({
      preparationFields: [{ id: 1, name: "ziel", label: "Ziel", placeholder: "" }],
    });
    const row = db()
      .insert(requests)
      .values({
        name: "Xaver Geheimname",
        email: "xaver.privat@example.com",
        phone: "+49 171 9876543",
        companyDescription: "Eine Schreinerei mit Ladengeschäft in Bamberg",
        description: "Ein Konfigurator für Einbauschränke.",
      })
      .returning()
      .get();
    expect(await summarizePending()).toBe(1);
    expect((await runAutomatedPreparation(row.id)).ok).toBe(true);
    expect((await runCodingPrompt(row.id)).ok).toBe(true);

    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body).toContain("Einbauschränke");
      expect(body).toContain("Schreinerei");
      expect(body).not.toContain("xaver.privat@example.com");
      expect(body).not.toContain("9876543");
      expect(body).not.toContain("Geheimname");
    }
  });
});
