import type { AppointmentJson } from "./appointments";
import { formatDateTime, formatRequestId, summaryOf } from "./format";
import type { RequestJson } from "./request-json";
import { STATUS_LABELS } from "./request-list";
import type { RequestStatus } from "./request-status";
import type { WebhookEvent, WebhookFormat } from "./webhooks";

/** What happened, as the emitting rule describes it (data = the spec's JSON of the thing). */
export type WebhookOccurrence =
  | { event: "request.created"; data: RequestJson }
  | { event: "request.status_changed"; data: RequestJson; previousStatus: RequestStatus }
  | {
      event: "request.stage_changed";
      data: RequestJson;
      previousStage: { id: string; name: string };
    }
  | { event: "request.trial_delivered"; data: RequestJson }
  | { event: "appointment.booked" | "appointment.cancelled"; data: AppointmentJson };

/** Slack mrkdwn: &, < and > are control characters. */
export const slackEscape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const requestLink = (appUrl: string, requestId: number) =>
  `${appUrl}/admin/requests?requestId=${requestId}`;

function slackLines(o: WebhookOccurrence): {
  headline: string;
  detail: string;
  requestId?: number;
} {
  if (o.event.startsWith("request.")) {
    const r = o.data as RequestJson;
    const id = `#${formatRequestId(r.id)}`;
    const headline =
      o.event === "request.status_changed"
        ? `Anfrage ${id} von ${r.name}: Status von „${STATUS_LABELS[o.previousStatus] ?? o.previousStatus}“ zu „${STATUS_LABELS[r.status] ?? r.status}“ geändert`
        : o.event === "request.stage_changed"
          ? `Anfrage ${id} von ${r.name}: Phase von „${o.previousStage.name}“ zu „${r.stage.name}“ geändert`
          : o.event === "request.trial_delivered"
            ? `Testversion für Anfrage ${id} von ${r.name} geliefert`
            : `Neue Anfrage ${id} von ${r.name}`;
    return { headline, detail: summaryOf(r), requestId: r.id };
  }
  const a = o.data as AppointmentJson;
  const who = a.request ? ` mit ${a.request.name}` : "";
  const headline = `${o.event === "appointment.booked" ? "Demo-Termin gebucht" : "Demo-Termin abgesagt"}${who}: ${formatDateTime(a.startTime)} Uhr`;
  const detail = a.request
    ? `${a.eventType.name} (Anfrage #${formatRequestId(a.request.id)}): ${a.request.summary}`
    : a.eventType.name;
  return { headline, detail, requestId: a.request?.id };
}

/** Slack's incoming-webhook message: German text with the summary and the link to the request. */
export function slackMessage(o: WebhookOccurrence, appUrl: string) {
  const { headline, detail, requestId } = slackLines(o);
  const link = requestId ? requestLink(appUrl, requestId) : null;
  // The fallback text is mrkdwn too: visitor input must not become <!channel> or a disguised link.
  const text = [
    slackEscape(headline),
    detail ? slackEscape(detail) : "",
    link ? `Zur Anfrage: ${link}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const section = `*${slackEscape(headline)}*${detail ? `\n${slackEscape(detail)}` : ""}`;
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: section } },
      ...(link
        ? [
            {
              type: "actions",
              elements: [
                {
                  type: "button",
                  text: { type: "plain_text", text: "Zur Anfrage" },
                  url: link,
                },
              ],
            },
          ]
        : []),
    ],
  };
}

/** The body as sent: `{ event, occurredAt, data }`, or the Slack message. */
export function webhookBody(
  format: WebhookFormat,
  o: WebhookOccurrence,
  occurredAt: Date,
  appUrl: string,
): string {
  if (format === "slack") return JSON.stringify(slackMessage(o, appUrl));
  const event: WebhookEvent = o.event;
  return JSON.stringify({ event, occurredAt: occurredAt.toISOString(), data: o.data });
}
