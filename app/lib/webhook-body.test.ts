import { describe, expect, it } from "vitest";
import { EMPTY_ATTRIBUTION } from "~/lib/attribution";
import type { AppointmentJson } from "./appointments";
import type { RequestJson } from "./request-json";
import { slackMessage, webhookBody } from "./webhook-body";
import { WebhookEndpointSchema } from "./webhooks";

const request: RequestJson = {
  id: 42,
  name: "Mia Muster",
  email: "mia@example.com",
  phone: "+49 30 1",
  companyDescription: "Bäckerei",
  description: "Eine App für Vorbestellungen",
  summary: "Vorbestell-App für eine Bäckerei",
  status: "Done",
  createdAt: "2026-11-23T10:00:00.000Z",
  updatedAt: "2026-11-23T11:00:00.000Z",
  archived: false,
  audioPath: null,
  attachments: [],
  preparationData: {},
  assigned_to: [],
  affiliateCode: null,
  attribution: EMPTY_ATTRIBUTION,
  stage: { id: "new", name: "Neu" },
  lostReason: null,
  promises: { contact: { dueAt: null, doneAt: null }, trial: { dueAt: null, doneAt: null } },
  trialUrl: null,
};

describe("webhook bodies", () => {
  it("JSON: exactly event, occurredAt and data", () => {
    const body = JSON.parse(
      webhookBody(
        "json",
        { event: "request.created", data: request },
        new Date("2026-11-23T10:00:01Z"),
        "https://a.example",
      ),
    );
    expect(body).toEqual({
      event: "request.created",
      occurredAt: "2026-11-23T10:00:01.000Z",
      data: request,
    });
  });

  it("Slack: German status change with both labels, the summary and the link", () => {
    const message = slackMessage(
      { event: "request.status_changed", data: request, previousStatus: "In Progress" },
      "https://a.example",
    );
    expect(message.text).toBe(
      "Anfrage #0042 von Mia Muster: Status von „In Bearbeitung“ zu „Erledigt“ geändert\n" +
        "Vorbestell-App für eine Bäckerei\n" +
        "Zur Anfrage: https://a.example/admin/requests?requestId=42",
    );
  });

  it("Slack: visitor input is escaped in the fallback text and in the blocks", () => {
    const hostile = {
      ...request,
      name: "<!channel> <https://evil.example|x>",
      // Plain prose (a summary that is not is replaced by the description, ADR 342) with a mention.
      summary: "Eine Bestell-App & <@U123> für alle",
    };
    const message = slackMessage({ event: "request.created", data: hostile }, "https://a.example");
    expect(message.text).toBe(
      "Neue Anfrage #0042 von &lt;!channel&gt; &lt;https://evil.example|x&gt;\n" +
        "Eine Bestell-App &amp; &lt;@U123&gt; für alle\n" +
        "Zur Anfrage: https://a.example/admin/requests?requestId=42",
    );
    const serialised = JSON.stringify(message);
    expect(serialised).not.toContain("<!channel>");
    expect(serialised).not.toContain("<https://evil.example");
    expect(serialised).not.toContain("<@U123>");
  });

  it("Slack: a cancelled demo names the time (Berlin) and links the request", () => {
    const appointment = {
      id: 7,
      startTime: "2026-11-25T08:00:00.000Z",
      eventType: { name: "Demo-Termin", duration: 30 },
      request: { id: 42, name: "Mia Muster", summary: "Vorbestell-App" },
    } as unknown as AppointmentJson;
    const message = slackMessage(
      { event: "appointment.cancelled", data: appointment },
      "https://a.example",
    );
    expect(message.text).toContain("Demo-Termin abgesagt mit Mia Muster: 25.11.2026, 09:00 Uhr");
    expect(message.text).toContain("requestId=42");
  });
});

describe("endpoint schema", () => {
  const valid = {
    id: "crm",
    url: "https://crm.example.com/h",
    events: ["request.created"],
    secret: "0123456789abcdef",
  };
  it("accepts a valid endpoint and defaults the format to json", () => {
    expect(WebhookEndpointSchema.parse(valid).format).toBe("json");
  });
  it("refuses bad URLs, no events, short secrets and unknown formats in German", () => {
    const messages = (input: object) =>
      WebhookEndpointSchema.safeParse({ ...valid, ...input }).error?.issues.map((i) => i.message);
    expect(messages({ url: "javascript:alert(1)" })).toEqual([
      "Bitte geben Sie eine gültige URL ein (https://…)!",
    ]);
    expect(messages({ url: "https://user:pw@example.com" })?.[0]).toContain("gültige URL");
    expect(messages({ events: [] })).toEqual(["Bitte wählen Sie mindestens ein Ereignis aus!"]);
    expect(messages({ secret: "kurz" })?.[0]).toContain("mindestens 16 Zeichen");
    expect(messages({ secret: "x".repeat(201) })?.[0]).toContain("höchstens 200 Zeichen");
    expect(messages({ format: "xml" })?.[0]).toContain("json oder slack");
  });
});
