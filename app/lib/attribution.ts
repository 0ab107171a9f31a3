import { z } from "zod";

/** Where a lead came from: the request JSON's `attribution` (every value null when unknown). */
export type Attribution = {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  landingPath: string | null;
};

export const EMPTY_ATTRIBUTION: Attribution = {
  source: null,
  medium: null,
  campaign: null,
  referrer: null,
  landingPath: null,
};

/** Hidden field names of the contact form (also accepted by POST /api/requests). */
export const ATTRIBUTION_FIELDS = {
  source: "utmSource",
  medium: "utmMedium",
  campaign: "utmCampaign",
  referrer: "referrer",
  landingPath: "landingPath",
} as const satisfies Record<keyof Attribution, string>;

export const ATTRIBUTION_KEYS = Object.keys(ATTRIBUTION_FIELDS) as (keyof Attribution)[];

/** Length caps: campaign names are short; a URL (referrer, landing path) may be longer. */
export const ATTRIBUTION_MAX: Record<keyof Attribution, number> = {
  source: 100,
  medium: 100,
  campaign: 200,
  referrer: 500,
  landingPath: 500,
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Trimmed, control characters removed, capped; null when nothing is left. */
export function cleanAttributionValue(value: unknown, key: keyof Attribution): string | null {
  if (typeof value !== "string") return null;
  const cleaned = value.replace(CONTROL_ALL, "").trim().slice(0, ATTRIBUTION_MAX[key]).trim();
  return cleaned || null;
}

/** Any object (cookie, form reply) to a clean attribution. */
export function cleanAttribution(value: unknown): Attribution {
  const record = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(
    ATTRIBUTION_KEYS.map((key) => [key, cleanAttributionValue(record[key], key)]),
  ) as Attribution;
}

export const hasAttribution = (a: Attribution) => ATTRIBUTION_KEYS.some((key) => a[key] !== null);

const INVALID = "Ungültige Herkunftsangabe";

const attributionField = (key: keyof Attribution) =>
  z
    .string()
    .max(ATTRIBUTION_MAX[key], INVALID)
    .refine((value) => !CONTROL.test(value), INVALID)
    .transform((value) => value.trim() || null)
    .optional();

/** The hidden attribution fields in the contact form's schema (spread into RequestFormSchema). */
export const attributionShape = {
  [ATTRIBUTION_FIELDS.source]: attributionField("source"),
  [ATTRIBUTION_FIELDS.medium]: attributionField("medium"),
  [ATTRIBUTION_FIELDS.campaign]: attributionField("campaign"),
  [ATTRIBUTION_FIELDS.referrer]: attributionField("referrer"),
  [ATTRIBUTION_FIELDS.landingPath]: attributionField("landingPath"),
} as const;

/**
 * The path a no-JS post on the landing page redirects to, carrying the landing document's external
 * referrer (posted as the hidden `referrer` field) in `ref` unless the path has one already.
 */
export function withCarriedReferrer(
  path: string,
  posted: unknown,
  ownHosts: readonly string[],
): string {
  const own = ownHosts.map((h) => h.toLowerCase());
  const referrer = externalReferrer(typeof posted === "string" ? posted.trim() : null, own);
  if (!referrer || !path.startsWith("/") || path.startsWith("//")) return path;
  const url = new URL(path, "http://same.invalid");
  if (url.searchParams.has(CARRIED_REFERRER_PARAM)) return path;
  url.searchParams.set(CARRIED_REFERRER_PARAM, referrer.slice(0, ATTRIBUTION_MAX.referrer));
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The attribution of a parsed contact form value. */
export function attributionOf(value: Partial<Record<string, unknown>>): Attribution {
  return cleanAttribution(
    Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, value[ATTRIBUTION_FIELDS[key]]])),
  );
}

/**
 * The query parameter that carries the landing document's external referrer across a no-JS form
 * post on the landing page (cookie bar, info banner, theme): the page the post redirects to is
 * loaded with our own page as its Referer (ADR 215).
 */
export const CARRIED_REFERRER_PARAM = "ref";

/** Query parameters that describe the visit rather than the page (left out of the landing path). */
const NOT_PATH = /^(utm_[a-z_]+|gesendet|cookies|index|_data|_routes|ref)$/i;

/** Another site's http(s) address reduced to origin and path (no query: it may carry personal data). */
function externalReferrer(value: string | null, own: readonly string[]): string | null {
  if (!value) return null;
  try {
    const from = new URL(value);
    if ((from.protocol === "https:" || from.protocol === "http:") && !own.includes(from.host))
      return `${from.origin}${from.pathname === "/" ? "" : from.pathname}`;
  } catch {
    // not an address
  }
  return null;
}

/**
 * The attribution of one visit, from the landing page's URL and its Referer header: utm_* of the
 * URL, the referrer only when it is another site (origin and path, no query: it may carry personal
 * data), the landing path without the utm parameters. Without an external Referer, the referrer
 * carried in the URL (`ref`, set by a no-JS post's redirect) counts.
 */
export function attributionFromVisit(
  url: URL,
  referer: string | null,
  ownHosts: readonly string[],
): Attribution {
  const own = [url.host, ...ownHosts].map((h) => h.toLowerCase());
  const referrer =
    externalReferrer(referer, own) ??
    externalReferrer(url.searchParams.get(CARRIED_REFERRER_PARAM), own);
  const rest = new URLSearchParams();
  for (const [name, value] of url.searchParams) if (!NOT_PATH.test(name)) rest.append(name, value);
  const query = rest.toString();
  return cleanAttribution({
    source: url.searchParams.get("utm_source"),
    medium: url.searchParams.get("utm_medium"),
    campaign: url.searchParams.get("utm_campaign"),
    referrer,
    landingPath: `${url.pathname}${query ? `?${query}` : ""}`,
  });
}
