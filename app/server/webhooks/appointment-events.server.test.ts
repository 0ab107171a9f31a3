import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { webhookDeliveries } from "~db/schema";
import { applyCalcomWebhook } from "../appointments/calcom-webhook.server";
import { saveConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { stopWebhookWorker } from "./deliveries.server";

afterAll(() => stopWebhookWorker());

// Cal.com reports bookings and cancellations through its webhook: the one function that applies it
// emits appointment.booked / appointment.cancelled, each once per appointment.
describe("appointment events from the Cal.com webhook", () => {
  it("announces a new booking and its cancellation once each", () => {
    const saved = saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      webhooks: [
        {
          id: "termine",
          url: "http://127.0.0.1:9/hook",
          events: ["appointment.booked", "appointment.cancelled"],
          secret: "0123456789abcdef-geheim",
          format: "json",
        },
      ],
    });
    expect(saved.ok).toBe(true);
    const created = {
      triggerEvent: "BOOKING_CREATED",
      payload: {
        uid: "cal-1",
        startTime: "2026-12-01T09:00:00.000Z",
        length: 30,
        status: "ACCEPTED",
      },
    };
    expect(applyCalcomWebhook(created).applied).toBe(true);
    expect(applyCalcomWebhook(created).applied).toBe(true); // repeated by Cal.com
    const cancelled = { triggerEvent: "BOOKING_CANCELLED", payload: { uid: "cal-1" } };
    applyCalcomWebhook(cancelled);
    applyCalcomWebhook(cancelled);
    const rows = db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, "termine"))
      .all();
    expect(rows.map((r) => r.event)).toEqual(["appointment.booked", "appointment.cancelled"]);
    const body = JSON.parse(rows[1].body);
    expect(body).toMatchObject({
      event: "appointment.cancelled",
      data: { calcomEventId: "cal-1", status: "CANCELLED", provider: "calcom" },
    });
  });
});
