import { PostButton } from "~/components/ui/post-button";
import { formatDateTime } from "~/lib/format";
import { outboxStatusView } from "~/lib/outbox-status";
import { WEBHOOK_EVENT_LABELS, type WebhookEvent } from "~/lib/webhooks";
import { OutboxList } from "./outbox-list";

export type WebhookDeliveryView = {
  id: number;
  deliveryId: string;
  endpointId: string;
  url: string;
  event: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
  responseStatus: number | null;
  createdAt: string;
  sentAt: string | null;
  body: string;
};

/** Webhook deliveries on the outbox page: status, attempts, last error, retry (works without JS). */
export function WebhookDeliveries({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  return (
    <section aria-labelledby="webhook-deliveries" className="space-y-3">
      <h2 id="webhook-deliveries" className="text-xl font-bold">
        {`Webhooks (${deliveries.length})`}
      </h2>
      <OutboxList
        empty="Noch keine Webhook-Zustellungen."
        entries={deliveries.map((d) => ({
          key: d.id,
          status: outboxStatusView(d.status, d.attempts, "Zugestellt"),
          error: d.lastError,
          title: `${WEBHOOK_EVENT_LABELS[d.event as WebhookEvent] ?? d.event} (${d.event})`,
          to: `An: ${d.url}`,
          meta: `Erstellt ${formatDateTime(d.createdAt)}${d.sentAt ? ` · zugestellt ${formatDateTime(d.sentAt)}` : ""}`,
          details: (
            <div className="mt-3 space-y-3 text-sm">
              <p className="text-slate-600 dark:text-slate-300">
                Zustellungs-ID: <code>{d.deliveryId}</code> · Versuche: {d.attempts}
                {d.responseStatus ? ` · Antwort: HTTP ${d.responseStatus}` : ""}
              </p>
              {d.lastError ? (
                <p className="text-red-700 dark:text-red-300">Letzter Fehler: {d.lastError}</p>
              ) : null}
              <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-50 p-3 text-xs dark:bg-slate-800">
                {d.body}
              </pre>
              {d.status !== "sent" ? (
                <PostButton fields={{ webhookDelivery: d.id }}>Erneut zustellen</PostButton>
              ) : null}
            </div>
          ),
        }))}
      />
    </section>
  );
}
