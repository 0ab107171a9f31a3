import { z } from "zod";

/** Events an endpoint can subscribe to (ADR 248). */
export const WEBHOOK_EVENTS = [
  "request.created",
  "request.status_changed",
  "request.stage_changed",
  "request.trial_delivered",
  "appointment.booked",
  "appointment.cancelled",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "request.created": "Neue Anfrage",
  "request.status_changed": "Statusänderung einer Anfrage",
  "request.stage_changed": "Phase einer Anfrage geändert",
  "request.trial_delivered": "Testversion geliefert",
  "appointment.booked": "Demo-Termin gebucht",
  "appointment.cancelled": "Demo-Termin abgesagt",
};

export const WEBHOOK_FORMATS = ["json", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const MAX_WEBHOOKS = 20;
export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 200;

/** Prefix of an encrypted secret at rest (the mail outbox's sealing, app/server/mail/secrets.server.ts). */
const SEALED_PREFIX = "enc:v1:";
/** What a secret looks like whenever it leaves the server: bullets and its last four characters. */
export const SECRET_MASK = "••••••••";

export const isMaskedSecret = (value: unknown) =>
  typeof value === "string" && value.startsWith("••••");
export const isSealedSecret = (value: unknown) =>
  typeof value === "string" && value.startsWith(SEALED_PREFIX);
export const maskSecret = (plain: string) => `${SECRET_MASK}${plain.slice(-4)}`;
/** A stored secret that cannot be decrypted (SESSION_SECRET changed) is masked without its tail. */
export const isUnreadableSecretMask = (value: unknown) => value === SECRET_MASK;
export const SECRET_UNREADABLE = "Secret nicht entschlüsselbar – bitte neu setzen";

export const URL_INVALID = "Bitte geben Sie eine gültige URL ein (https://…)!";
export const EVENTS_REQUIRED = "Bitte wählen Sie mindestens ein Ereignis aus!";
export const SECRET_TOO_SHORT = `Das Secret muss mindestens ${SECRET_MIN_LENGTH} Zeichen lang sein.`;
export const SECRET_TOO_LONG = `Das Secret darf höchstens ${SECRET_MAX_LENGTH} Zeichen lang sein.`;

/** An http(s) URL without credentials; whether http and which hosts are allowed is the server's (SSRF rules). */
const webhookUrl = z
  .string({ error: URL_INVALID })
  .trim()
  .max(2000, "Die URL ist zu lang (max. 2000 Zeichen).")
  .refine((value) => {
    // A credential URL as stored (sealed, ADR 262); input only reaches here sealed when it is
    // exactly the stored one (withStoredSecrets).
    if (isSealedSecret(value)) return true;
    if (isMaskedUrl(value)) return false; // a masked URL of an unknown endpoint
    try {
      const url = new URL(value);
      return (
        (url.protocol === "https:" || url.protocol === "http:") &&
        !url.username &&
        !url.password &&
        url.hostname !== ""
      );
    } catch {
      return false;
    }
  }, URL_INVALID);

export const WebhookEndpointSchema = z.object({
  id: z
    .string({ error: "Ungültige Webhook-ID." })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Ungültige Webhook-ID (Buchstaben, Ziffern, - und _)."),
  url: webhookUrl,
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: "Unbekanntes Ereignis." }), { error: EVENTS_REQUIRED })
    .min(1, EVENTS_REQUIRED)
    .transform((list) => [...new Set(list)]),
  /** Plain while being entered; encrypted at rest ("enc:v1:…", any length). */
  secret: z
    .string({ error: SECRET_TOO_SHORT })
    .min(SECRET_MIN_LENGTH, SECRET_TOO_SHORT)
    .max(5000, SECRET_TOO_LONG)
    .refine((s) => isSealedSecret(s) || s.length <= SECRET_MAX_LENGTH, SECRET_TOO_LONG),
  format: z.enum(WEBHOOK_FORMATS, { error: "Format muss json oder slack sein." }).default("json"),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookListSchema = z
  .array(WebhookEndpointSchema)
  .max(MAX_WEBHOOKS, `Höchstens ${MAX_WEBHOOKS} Webhooks.`)
  .default([])
  .refine(
    (list) => new Set(list.map((w) => w.id)).size === list.length,
    "Jede Webhook-ID darf nur einmal vorkommen.",
  );

/** What the settings page shows again after a refused webhook form (the typed values, errors). */
export type WebhookFormState = {
  /** The endpoint id, or "new" for the add form. */
  key: string;
  values: { url: string; events: string[]; format: string; secret: string };
  errors: Partial<Record<"url" | "events" | "secret" | "format" | "form", string[]>>;
};

/** The settings page's form of one endpoint (flat names) as an endpoint draft. */
export function webhookFromForm(form: FormData) {
  return {
    id: String(form.get("webhookId") ?? ""),
    url: String(form.get("webhookUrl") ?? ""),
    events: form.getAll("webhookEvent").map(String),
    secret: String(form.get("webhookSecret") ?? ""),
    format: String(form.get("webhookFormat") ?? "json"),
  };
}

/** A Slack incoming-webhook URL is itself a credential (the path is the token). */
export function isSlackTarget(w: { url: string; format?: string }): boolean {
  if (w.format === "slack") return true;
  try {
    return new URL(w.url).hostname === "hooks.slack.com";
  } catch {
    return false;
  }
}

/** Hosts whose incoming-webhook URLs carry their credential in the path. */
const CREDENTIAL_HOSTS = [
  /^hooks\.slack\.com$/,
  /^(?:ptb\.|canary\.)?discord(?:app)?\.com$/,
  /\.webhook\.office\.com$/,
  /^hooks\.zapier\.com$/,
  /^chat\.googleapis\.com$/,
  /^api\.telegram\.org$/,
];
/** Query parameters that carry a credential (`?token=…`, `?key=…`, a signature). */
const CREDENTIAL_PARAM = /^(?:token|access_token|key|api_?key|secret|sig|signature|code|auth)$/i;

/**
 * Whether the URL itself is a credential (ADR 262): Slack and the other chat/automation hooks whose
 * path is the token, or any URL with a token-like query parameter. Such URLs are sealed at rest
 * and masked like secrets wherever they are shown.
 */
export function isCredentialUrl(w: { url: string; format?: string }): boolean {
  if (isSlackTarget(w)) return true;
  try {
    const url = new URL(w.url);
    if (CREDENTIAL_HOSTS.some((host) => host.test(url.hostname))) return true;
    return [...url.searchParams.keys()].some((name) => CREDENTIAL_PARAM.test(name));
  } catch {
    return false;
  }
}

/** A credential URL for display: scheme, host and the last four characters of the rest. */
export function maskUrl(raw: string): string {
  try {
    const url = new URL(raw);
    const rest = `${url.pathname}${url.search}`.replace(/^\//, "");
    return `${url.origin}/${SECRET_MASK}${rest.slice(-4)}`;
  } catch {
    return SECRET_MASK;
  }
}
export const isMaskedUrl = (value: unknown) => typeof value === "string" && value.includes("••••");

/**
 * Hides every secret of a list, and credential URLs (what GET /api/configuration and the settings
 * page show). `reveal` opens a sealed value (secret or URL).
 */
export function maskWebhooks<T extends { secret: string; url: string; format?: string }>(
  list: T[],
  reveal: (secret: string) => string | null,
): T[] {
  return list.map((w) => {
    const url = isSealedSecret(w.url) ? (reveal(w.url) ?? "") : w.url;
    return {
      ...w,
      url: isSealedSecret(w.url) || isCredentialUrl({ ...w, url }) ? maskUrl(url) : url,
      secret: maskSecret(reveal(w.secret) ?? ""),
    };
  });
}
