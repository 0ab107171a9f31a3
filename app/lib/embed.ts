import { z } from "zod";

/**
 * The embeddable contact form (ADR 283): the websites that may frame `/embed`, the
 * message the frame sends its host page, and the snippet the settings page offers.
 */

/** The path of the framed form, and of the optional helper script (static, in public/). */
export const EMBED_PATH = "/embed";
/** Bump with every change of public/embed.js: the snippet's `?v=` (the file is cached a long time). */
export const EMBED_SCRIPT_VERSION = "2";
export const EMBED_SCRIPT_PATH = "/embed.js";
/** The message the frame posts to its parent with its height (public/embed.js resizes on it). */
export const EMBED_HEIGHT_MESSAGE = "anfrage-portal:height";
/** The query parameter embed.js passes the host page's address in (recorded as referrer). */
export const EMBED_PAGE_PARAM = "ref";
/** The hidden field of the framed form with its signed token (instead of a cookie). */
export const EMBED_TOKEN_FIELD = "embedToken";
/** How many websites may embed the form. */
export const EMBED_ORIGINS_MAX = 20;

export const EMBED_ORIGIN_REQUIRED = "Bitte geben Sie eine Adresse ein, z. B. https://example.com.";
export const EMBED_ORIGIN_INVALID =
  "Bitte geben Sie nur Schema, Host und ggf. Port an, z. B. https://www.example.com (ohne Pfad).";
export const EMBED_ORIGIN_HTTPS =
  "Nur https-Adressen sind erlaubt (http nur für localhost, solange die App selbst lokal läuft).";
export const EMBED_ORIGIN_DUPLICATE = "Diese Adresse steht bereits in der Liste.";
export const EMBED_ORIGIN_WILDCARD =
  "Platzhalter wie * sind nicht erlaubt. Bitte geben Sie jede Website einzeln an, z. B. https://www.example.com.";
export const EMBED_ORIGIN_HOST =
  "Der Name der Website darf nur Buchstaben, Ziffern, Punkte und Bindestriche enthalten, z. B. https://www.example.com.";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a URL's host is loopback (localhost, 127.0.0.0/8, [::1]). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * Whether a URL's hostname may stand in a CSP source (attack29): a name of letters, digits, dots and
 * hyphens (an IDN as the URL gives it, in punycode), an IPv4 address or a bracketed IPv6 address.
 * Never a `*` wildcard, nor `;`, `,` or `'`, which would end or change the CSP directive.
 */
export function isValidEmbedHost(hostname: string): boolean {
  return /^[a-z0-9.-]+$/i.test(hostname) || /^\[[0-9a-f:.]+\]$/i.test(hostname);
}

/**
 * One entry of the list as an origin (scheme, host and port; a trailing slash is dropped), or the
 * German reason it is not one. http is accepted only for a loopback host here; whether that is
 * allowed depends on APP_URL (the server checks it, app/server/embed/embed.server.ts).
 */
export function parseEmbedOrigin(
  value: string,
): { ok: true; origin: string } | { ok: false; message: string } {
  const text = value.trim();
  if (!text) return { ok: false, message: EMBED_ORIGIN_REQUIRED };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: EMBED_ORIGIN_INVALID };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, message: EMBED_ORIGIN_INVALID };
  if (url.username || url.password || url.search || url.hash || url.pathname !== "/")
    return { ok: false, message: EMBED_ORIGIN_INVALID };
  // "https://example.com/?" or "#" leave nothing in search/hash: refuse them by the text itself.
  if (/[?#]/.test(text)) return { ok: false, message: EMBED_ORIGIN_INVALID };
  if (url.hostname.includes("*")) return { ok: false, message: EMBED_ORIGIN_WILDCARD };
  if (!isValidEmbedHost(url.hostname)) return { ok: false, message: EMBED_ORIGIN_HOST };
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return { ok: false, message: EMBED_ORIGIN_HTTPS };
  return { ok: true, origin: url.origin };
}

/** One origin of the list: normalised, or refused with its German message. */
export const EmbedOriginSchema = z
  .string({ error: EMBED_ORIGIN_REQUIRED })
  .transform((value, ctx) => {
    const parsed = parseEmbedOrigin(value);
    if (parsed.ok) return parsed.origin;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });

/** The list: each entry at its row, duplicates (after normalising) refused at the second one. */
export const EmbedOriginListSchema = z
  .array(EmbedOriginSchema)
  .max(EMBED_ORIGINS_MAX, {
    error: `Es sind höchstens ${EMBED_ORIGINS_MAX} Websites möglich.`,
  })
  .superRefine((list, ctx) => {
    list.forEach((origin, index) => {
      if (list.indexOf(origin) < index)
        ctx.addIssue({ code: "custom", path: [index], message: EMBED_ORIGIN_DUPLICATE });
    });
  });

/** `embed` in the configuration: empty list = embedding off (the default). */
export const EmbedSettingsSchema = z.object({
  allowedOrigins: EmbedOriginListSchema.default([]),
});
export type EmbedSettings = z.infer<typeof EmbedSettingsSchema>;
export const DEFAULT_EMBED: EmbedSettings = { allowedOrigins: [] };

/** The CSP `frame-ancestors` sources of /embed: our own origin and the allowed websites. */
export function embedFrameAncestors(allowedOrigins: readonly string[]): string[] {
  return ["'self'", ...allowedOrigins];
}

/**
 * The stored origins that may stand in `frame-ancestors` now: each a valid, normalised origin (one
 * saved before a check existed is dropped), http ones only while the app runs on loopback.
 */
export function usableEmbedOrigins(stored: readonly string[], appLoopback: boolean): string[] {
  return stored.filter((origin) => {
    const parsed = parseEmbedOrigin(origin);
    if (!parsed.ok || parsed.origin !== origin) return false;
    return appLoopback || !origin.startsWith("http:");
  });
}

/**
 * A stored configuration document without the embed origins the schema now refuses (saved before
 * a check existed, e.g. `https://*`): one such entry must not discard the whole configuration.
 */
export function withoutInvalidEmbedOrigins(data: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(data) || !isObject(data.embed) || !Array.isArray(data.embed.allowedOrigins))
    return data;
  const allowedOrigins = data.embed.allowedOrigins.filter(
    (origin) => typeof origin === "string" && parseEmbedOrigin(origin).ok,
  );
  return { ...data, embed: { ...data.embed, allowedOrigins } };
}

/** The copy-paste snippet for a host page: the frame, and optionally the resizing script. */
export function embedSnippet(appUrl: string): { iframe: string; script: string; csp: string } {
  const base = appUrl.replace(/\/+$/, "");
  const origin = new URL(base).origin;
  return {
    iframe: `<iframe src="${base}${EMBED_PATH}" title="Kontaktformular" allow="microphone" loading="lazy" style="width:100%;height:900px;border:0" data-anfrage-portal></iframe>`,
    script: `<script src="${base}${EMBED_SCRIPT_PATH}?v=${EMBED_SCRIPT_VERSION}" defer></script>`,
    csp: `frame-src ${origin}; script-src ${origin}`,
  };
}
