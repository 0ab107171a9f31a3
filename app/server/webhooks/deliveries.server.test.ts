import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_ATTRIBUTION } from "~/lib/attribution";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import type { RequestJson } from "~/lib/request-json";
import { saveConfiguration } from "../configuration/configuration.server";
import { testHooks } from "../platform/test-hooks.server";
import { emitWebhook, listDeliveries, stopWebhookWorker } from "./deliveries.server";

const SECRET = "bench-secret-0123456789";
let server: Server;
let port: number;
const seen = new Map<string, number>();
let badSignatures = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const expected = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
      if (req.headers["x-webhook-signature"] !== expected) badSignatures++;
      const id = String(req.headers["x-webhook-delivery"]);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await stopWebhookWorker();
  await new Promise((resolve) => server.close(resolve));
});

const request = (id: number): RequestJson => ({
  id,
  name: `Kundin ${id}`,
  email: `k${id}@example.com`,
  phone: "+49 30 1",
  companyDescription: "Firma",
  description: "Projekt",
  summary: null,
  status: "New",
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
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
});

describe("webhook outbox under load", () => {
  it("delivers 300 queued events to a loopback receiver, each exactly once and correctly signed", async () => {
    expect(
      saveConfiguration({
        ...DEFAULT_CONFIGURATION,
        webhooks: [
          {
            id: "last",
            url: `http://127.0.0.1:${port}/hook`,
            events: ["request.created"],
            secret: SECRET,
            format: "json",
          },
        ],
      }).ok,
    ).toBe(true);
    const queuedAt = performance.now();
    for (let i = 1; i <= 300; i++) {
      emitWebhook({ event: "request.created", data: request(i) }, String(i), null);
      emitWebhook({ event: "request.created", data: request(i) }, String(i), null); // repeated
    }
    const enqueueMs = performance.now() - queuedAt;
    const started = performance.now();
    expect(await testHooks.drainWebhooks()).toBe(300);
    const drainMs = performance.now() - started;
    expect(seen.size).toBe(300);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(badSignatures).toBe(0);
    expect(listDeliveries(1000).every((d) => d.status === "sent")).toBe(true);
    console.info(
      `webhooks: 600 enqueues (300 unique) in ${enqueueMs.toFixed(0)} ms; 300 deliveries in ${drainMs.toFixed(0)} ms (${((300 / drainMs) * 1000).toFixed(0)}/s)`,
    );
  });
});
