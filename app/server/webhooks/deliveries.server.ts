import { createHmac, randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, lte } from "drizzle-orm";
import { type WebhookOccurrence, webhookBody } from "~/lib/webhook-body";
import {
  isCredentialUrl,
  isMaskedUrl,
  isSlackTarget,
  maskUrl,
  type WebhookEndpoint,
} from "~/lib/webhooks";
import { webhookDeliveries } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { openBody } from "../mail/secrets.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { afterFailure, backoffMs, outboxWorker } from "../platform/outbox-retry.server";
import { failure } from "../platform/result.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { endpointUrl } from "./config.server";
import { type PostResult, postWebhook } from "./http.server";

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/** `sha256=<hex HMAC-SHA256 of the raw body>` with the endpoint's secret. */
export const signBody = (body: string, secret: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/**
 * Queues one delivery per subscribed endpoint. `key` names the occurrence (e.g. "request.created:12"):
 * the unique (endpoint, key) index makes a second enqueue of the same occurrence a no-op, so a rule
 * that runs twice never sends twice. Never throws (the rule's own work is done already).
 */
export function emitWebhook(
  occurrence: WebhookOccurrence,
  key: string,
  requestId: number | null,
  occurredAt = new Date(),
): number {
  try {
    const endpoints = getConfiguration().webhooks.filter((w) =>
      w.events.includes(occurrence.event),
    );
    if (!endpoints.length) return 0;
    let queued = 0;
    for (const endpoint of endpoints) {
      const result = db()
        .insert(webhookDeliveries)
        .values({
          deliveryId: randomUUID(),
          endpointId: endpoint.id,
          // Shown on the outbox page only: a credential URL is kept masked (the send uses the
          // endpoint's current, sealed one).
          url: maskedTarget(endpoint),
          event: occurrence.event,
          eventKey: `${occurrence.event}:${key}`,
          requestId,
          body: webhookBody(endpoint.format, occurrence, occurredAt, env().APP_URL),
        })
        .onConflictDoNothing()
        .run();
      queued += result.changes;
    }
    kickWorker();
    return queued;
  } catch (error) {
    console.warn(
      "Webhook konnte nicht eingereiht werden:",
      error instanceof Error ? error.message : error,
    );
    return 0;
  }
}

const maskedTarget = (endpoint: WebhookEndpoint) => {
  const url = endpointUrl(endpoint);
  return isCredentialUrl({ ...endpoint, url }) ? maskUrl(url) : url;
};

export function listDeliveries(limit = 200): WebhookDelivery[] {
  return db()
    .select()
    .from(webhookDeliveries)
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit)
    .all();
}

/** The outbox page's rows (dates as ISO strings; Slack URLs masked, they are credentials). */
export function deliveryViews(limit = 200) {
  const formats = new Map(getConfiguration().webhooks.map((w) => [w.id, w.format]));
  return listDeliveries(limit).map((d) => ({
    id: d.id,
    deliveryId: d.deliveryId,
    endpointId: d.endpointId,
    url:
      isMaskedUrl(d.url) || !isSlackTarget({ url: d.url, format: formats.get(d.endpointId) })
        ? d.url
        : maskUrl(d.url),
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    lastError: d.lastError,
    responseStatus: d.responseStatus,
    createdAt: d.createdAt.toISOString(),
    sentAt: d.sentAt?.toISOString() ?? null,
    body: d.body,
  }));
}

/** Puts a failed (or pending) delivery back in the queue for an immediate attempt. */
export function retryDelivery(id: number): boolean {
  const result = db()
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: new Date(), attempts: 0 })
    .where(
      and(eq(webhookDeliveries.id, id), inArray(webhookDeliveries.status, ["failed", "pending"])),
    )
    .run();
  kickWorker();
  return result.changes > 0;
}

async function attempt(
  row: WebhookDelivery,
  endpoint: WebhookEndpoint | undefined,
): Promise<PostResult> {
  if (!endpoint) return failure(410, "Webhook wurde entfernt.");
  const secret = openBody(endpoint.secret);
  if (secret === null)
    return failure(500, "Secret nicht entschlüsselbar (SESSION_SECRET geändert?)");
  const url = endpointUrl(endpoint);
  if (!url) return failure(500, "URL nicht entschlüsselbar (SESSION_SECRET geändert?)");
  return postWebhook(url, row.body, {
    "x-webhook-signature": signBody(row.body, secret),
    "x-webhook-delivery": row.deliveryId,
    "x-webhook-event": row.event,
  });
}

/** One batch: every due pending delivery (up to 20) gets one attempt. */
async function sendDue(now: Date): Promise<{ attempted: number; sent: number }> {
  const due = db()
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.id))
    .limit(20)
    .all();
  if (!due.length) return { attempted: 0, sent: 0 };
  const endpoints = new Map(getConfiguration().webhooks.map((w) => [w.id, w]));
  let sent = 0;
  for (const row of due) {
    // Claimed before the POST: a crash during it leaves a pending row due after the backoff, so the
    // delivery is repeated (at least once, same X-Webhook-Delivery id), never lost.
    db()
      .update(webhookDeliveries)
      .set({
        attempts: row.attempts + 1,
        nextAttemptAt: new Date(Date.now() + backoffMs(row.attempts + 1)),
      })
      .where(eq(webhookDeliveries.id, row.id))
      .run();
    const result = await attempt(row, endpoints.get(row.endpointId));
    if (result.ok) {
      db()
        .update(webhookDeliveries)
        .set({
          status: "sent",
          sentAt: new Date(),
          lastError: null,
          responseStatus: result.status,
        })
        .where(eq(webhookDeliveries.id, row.id))
        .run();
      sent++;
    } else {
      db()
        .update(webhookDeliveries)
        .set({
          ...afterFailure(row.attempts),
          lastError: result.error,
          responseStatus: result.upstream ?? null,
        })
        .where(eq(webhookDeliveries.id, row.id))
        .run();
    }
  }
  return { attempted: due.length, sent };
}

const worker = outboxWorker({ label: "Webhooks", sendDue });
const kickWorker = () => worker.kick();

/** Background sender: polls every 5 s and right after an enqueue. */
export const startWebhookWorker = (intervalMs?: number) => worker.start(intervalMs);
export const stopWebhookWorker = () => worker.stop();

/** Deterministic flush for tests: batch after batch until nothing is due; resolves with how many succeeded. */
registerTestHooks({ drainWebhooks: () => worker.drain() });
