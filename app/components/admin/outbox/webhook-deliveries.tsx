import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatDateTime } from "~/lib/format";
import { WEBHOOK_EVENT_LABELS, type WebhookEvent } from "~/lib/webhooks";

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

const STATUS = {
  pending: {
    label: "Wartend",
    className: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  },
  sent: {
    label: "Zugestellt",
    className: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  },
  failed: {
    label: "Fehlgeschlagen",
    className: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  },
} as const;

/** Webhook deliveries on the outbox page: status, attempts, last error, retry (works without JS). */
export function WebhookDeliveries({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  return (
    <section aria-labelledby="webhook-deliveries" className="space-y-3">
      <h2 id="webhook-deliveries" className="text-xl font-bold">
        {`Webhooks (${deliveries.length})`}
      </h2>
      {deliveries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:text-slate-400 dark:border-slate-700">
          Noch keine Webhook-Zustellungen.
        </p>
      ) : (
        <ul className="space-y-3">
          {deliveries.map((d) => (
            <li key={d.id}>
              <Card className="p-4">
                <details>
                  <summary className="flex cursor-pointer flex-wrap items-center gap-3">
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS[d.status].className}`}
                    >
                      {STATUS[d.status].label}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium">
                        {WEBHOOK_EVENT_LABELS[d.event as WebhookEvent] ?? d.event} ({d.event})
                      </span>
                      <span className="block break-all text-sm text-slate-500 dark:text-slate-400">
                        An: {d.url}
                      </span>
                    </span>
                    <span className="text-xs text-slate-500 dark:text-slate-400">
                      Erstellt {formatDateTime(d.createdAt)}
                      {d.sentAt ? ` · zugestellt ${formatDateTime(d.sentAt)}` : ""}
                    </span>
                  </summary>
                  <div className="mt-3 space-y-3 text-sm">
                    <p className="text-slate-600 dark:text-slate-300">
                      Zustellungs-ID: <code>{d.deliveryId}</code> · Versuche: {d.attempts}
                      {d.responseStatus ? ` · Antwort: HTTP ${d.responseStatus}` : ""}
                    </p>
                    {d.lastError ? (
                      <p className="text-red-700 dark:text-red-300">
                        Letzter Fehler: {d.lastError}
                      </p>
                    ) : null}
                    <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-50 p-3 text-xs dark:bg-slate-800">
                      {d.body}
                    </pre>
                    {d.status !== "sent" ? (
                      <Form method="post">
                        <input type="hidden" name="webhookDelivery" value={d.id} />
                        <Button type="submit" size="sm" variant="secondary">
                          Erneut zustellen
                        </Button>
                      </Form>
                    ) : null}
                  </div>
                </details>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
