import type { Configuration } from "~/lib/configuration";
import {
  isMaskedSecret,
  isMaskedUrl,
  isSealedSecret,
  maskWebhooks,
  type WebhookEndpoint,
} from "~/lib/webhooks";
import { openBody, sealBody } from "../mail/secrets.server";
import { maskFeedUrls } from "../team-calendar/config.server";
import { refusedUrl } from "./address.server";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Before validation: an omitted, empty or masked secret of a known endpoint id becomes the stored
 * one (decrypted, so the schema checks one form; still sealed when it cannot be decrypted); a sealed
 * value is only accepted when it is exactly the stored one (a copied database value is not).
 */
export function withStoredSecrets(input: unknown, stored: WebhookEndpoint[]): unknown {
  if (!isObject(input) || !Array.isArray(input.webhooks)) return input;
  const byId = new Map(stored.map((w) => [w.id, w]));
  return {
    ...input,
    webhooks: input.webhooks.map((raw) => {
      if (!isObject(raw)) return raw;
      const known = typeof raw.id === "string" ? byId.get(raw.id) : undefined;
      // A masked (Slack) URL sent back keeps the stored one.
      const item = known && isMaskedUrl(raw.url) ? { ...raw, url: known.url } : raw;
      const secret = item.secret;
      const keep = secret === undefined || secret === "" || isMaskedSecret(secret);
      if (keep || isSealedSecret(secret)) {
        // Undecryptable (SESSION_SECRET changed): the stored sealed value is kept as it is, so the
        // endpoint does not block every other save; the settings page asks for a new secret.
        const reuse =
          known && (keep || secret === known.secret)
            ? (openBody(known.secret) ?? known.secret)
            : null;
        return { ...item, secret: reuse ?? "" };
      }
      return item;
    }),
  };
}

/** After validation: the SSRF rules that depend on APP_URL (https only, no private hosts). */
export function webhookTargetErrors(config: Configuration): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  config.webhooks.forEach((w, i) => {
    const refused = refusedUrl(w.url);
    if (refused) errors[`webhooks.${i}.url`] = [refused];
  });
  return errors;
}

/** What is stored: every secret encrypted (AES-256-GCM with a key from SESSION_SECRET, ADR 142). */
export const sealWebhookSecrets = (config: Configuration): Configuration => ({
  ...config,
  webhooks: config.webhooks.map((w) => ({
    ...w,
    secret: isSealedSecret(w.secret) ? w.secret : sealBody(w.secret),
  })),
});

/** What leaves the server (API, settings page): secrets and busy-feed URLs masked (last four characters). */
export const maskedConfiguration = (config: Configuration): Configuration =>
  maskFeedUrls({ ...config, webhooks: maskWebhooks(config.webhooks, openBody) });
