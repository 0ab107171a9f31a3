import { createHmac, timingSafeEqual } from "node:crypto";
import { applyCalcomWebhook } from "~/server/appointments/calcom-webhook.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { readText } from "~/server/http/json-body.server";
import { env } from "~/server/platform/env.server";
import { failureJson } from "~/server/platform/result.server";

/** X-Cal-Signature-256 = hex HMAC-SHA256(secret, raw body); compared in constant time. */
export function validSignature(raw: string, signature: string | null, secret: string): boolean {
  if (!signature) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(raw).digest("hex"));
  const given = Buffer.from(signature.trim().toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * POST /api/calcom/webhook: verified Cal.com booking events update the appointments cache. No
 * `json` option: the signature is over the raw body, so the handler reads it as text.
 */
export const action = publicApi(
  { fallback: "Webhook konnte nicht verarbeitet werden", methods: ["POST"] },
  async ({ request }) => {
    const secret = env().CALCOM_WEBHOOK_SECRET;
    const body = await readText(request);
    if (!body.ok) return failureJson(body);
    const raw = body.value;
    if (!secret || !validSignature(raw, request.headers.get("x-cal-signature-256"), secret)) {
      return Response.json({ error: "Ungültige Signatur" }, { status: 401 });
    }
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      return Response.json({ error: "Ungültiges JSON" }, { status: 400 });
    }
    const result = applyCalcomWebhook(event as Parameters<typeof applyCalcomWebhook>[0]);
    return Response.json({ received: true, applied: result.applied });
  },
);

export const loader = onlyMethod("POST");
