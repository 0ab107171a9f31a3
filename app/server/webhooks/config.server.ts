import type { Configuration } from "~/lib/configuration";
import {
  isCredentialUrl,
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
      // A masked credential URL sent back keeps the stored one (opened: validated and sealed
      // again like a typed one); a sealed URL counts only when it is exactly the stored one.
      const keepUrl = known && (isMaskedUrl(raw.url) || raw.url === known.url);
      // Undecryptable (SESSION_SECRET changed): kept sealed, like a secret (no save is blocked).
      const stored = known ? (openBody(known.url) ?? known.url) : "";
      const url = keepUrl ? stored : isSealedSecret(raw.url) ? "" : raw.url;
      const item: Record<string, unknown> = { ...raw, url };
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

/** The plain URL of a stored endpoint ("" when a sealed one cannot be opened any more). */
export const endpointUrl = (w: { url: string }) =>
  isSealedSecret(w.url) ? (openBody(w.url) ?? "") : w.url;

export const NEW_SECRET_FOR_NEW_URL =
  "Die Ziel-URL wurde geändert: Bitte vergeben Sie auch ein neues Secret, damit die neue Adresse nicht das Secret der alten erhält.";

/**
 * Before validation (ADR 262): an endpoint whose URL changes needs a new secret, typed in plain and
 * different from the stored one, so the old receiver's secret never signs for a new one.
 */
export function newUrlSecretErrors(input: unknown, stored: WebhookEndpoint[]) {
  const errors: Record<string, string[]> = {};
  if (!isObject(input) || !Array.isArray(input.webhooks)) return errors;
  const byId = new Map(stored.map((w) => [w.id, w]));
  input.webhooks.forEach((raw, i) => {
    if (!isObject(raw) || typeof raw.id !== "string") return;
    const known = byId.get(raw.id);
    if (!known || typeof raw.url !== "string") return;
    if (isMaskedUrl(raw.url) || raw.url === known.url) return;
    if (raw.url.trim() === endpointUrl(known)) return;
    const secret = raw.secret;
    const fresh =
      typeof secret === "string" &&
      secret !== "" &&
      !isMaskedSecret(secret) &&
      !isSealedSecret(secret) &&
      secret !== openBody(known.secret);
    if (!fresh) errors[`webhooks.${i}.secret`] = [NEW_SECRET_FOR_NEW_URL];
  });
  return errors;
}

/** The endpoints of a save whose target URL changed (their queued deliveries are dropped). */
export function endpointsWithNewUrl(before: WebhookEndpoint[], after: WebhookEndpoint[]) {
  const old = new Map(before.map((w) => [w.id, endpointUrl(w)]));
  return after.filter((w) => old.has(w.id) && old.get(w.id) !== endpointUrl(w)).map((w) => w.id);
}

/** After validation: the SSRF rules that depend on APP_URL (https only, no private hosts). */
export function webhookTargetErrors(config: Configuration): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  config.webhooks.forEach((w, i) => {
    const refused = isSealedSecret(w.url) ? null : refusedUrl(w.url);
    if (refused) errors[`webhooks.${i}.url`] = [refused];
  });
  return errors;
}

/**
 * What is stored: every secret encrypted (AES-256-GCM with a key from SESSION_SECRET, ADR 142), and
 * every credential URL (Slack and the like) too (ADR 262).
 */
export const sealWebhookSecrets = (config: Configuration): Configuration => ({
  ...config,
  webhooks: config.webhooks.map((w) => ({
    ...w,
    url: !isSealedSecret(w.url) && isCredentialUrl(w) ? sealBody(w.url) : w.url,
    secret: isSealedSecret(w.secret) ? w.secret : sealBody(w.secret),
  })),
});

/** What leaves the server (API, settings page): secrets and busy-feed URLs masked (last four characters). */
export const maskedConfiguration = (config: Configuration): Configuration =>
  maskFeedUrls({ ...config, webhooks: maskWebhooks(config.webhooks, openBody) });
