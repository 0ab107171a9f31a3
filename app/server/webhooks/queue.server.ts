import { and, eq, inArray } from "drizzle-orm";
import { webhookDeliveries } from "~db/schema";
import { db } from "../platform/db.server";

/**
 * Drops the deliveries of an endpoint still waiting or failed (ADR 262): its URL changed, and what
 * was queued for the old receiver must not go to the new one. Sent ones stay as the record.
 */
export function dropQueuedDeliveries(endpointId: string): number {
  return db()
    .delete(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        inArray(webhookDeliveries.status, ["pending", "failed"]),
      ),
    )
    .run().changes;
}
