import { createHmac, timingSafeEqual } from "node:crypto";
import { type Attribution, attributionFromVisit } from "~/lib/attribution";
import { EMBED_PAGE_PARAM, EMBED_PATH, embedFrameAncestors, usableEmbedOrigins } from "~/lib/embed";
import { getConfiguration } from "../configuration/configuration.server";
import { derivedKeys } from "../platform/crypto.server";
import { env } from "../platform/env.server";
import { failure, type Result } from "../platform/result.server";
import { appIsLoopback } from "./origins.server";

/**
 * The embeddable contact form (ADR 283). Inside a cross-site frame no cookie is set or
 * sent, so the frame reads none: the form carries a signed token (CSRF) instead of a session, and
 * the answer after a no-JS post is named by a signed "gesendet" token in the redirect's URL.
 */

/** Whether a request is for the framed form (its page and its data requests). */
export function isEmbedPath(pathname: string): boolean {
  return pathname === EMBED_PATH || pathname === `${EMBED_PATH}.data`;
}

/**
 * The `frame-ancestors` sources of /embed now: 'self' and the allowed websites. A stored entry that
 * is no valid origin now (saved before a check existed, or http loopback while APP_URL no longer is
 * loopback) is left out, so a bad value can never take /embed down.
 */
export function embedFrameSources(): string[] {
  try {
    const stored = getConfiguration().embed.allowedOrigins;
    return embedFrameAncestors(usableEmbedOrigins(stored, appIsLoopback()));
  } catch {
    // No database (yet, or any more): the form frames itself only.
    return embedFrameAncestors([]);
  }
}

// ---------------------------------------------------------------------------------------------
// Signed tokens: `<payload>.<HMAC-SHA256 base64url>`, key derived from SESSION_SECRET (every
// secret of the rotation list verifies), the purpose bound into the key.

/** The framed form's token lives this long: a visitor may take a while to describe the idea. */
export const EMBED_FORM_TOKEN_SECONDS = 24 * 3600;
/** The "gesendet" token only has to survive the redirect and a reload. */
export const EMBED_SENT_TOKEN_SECONDS = 3600;

export const EMBED_TOKEN_INVALID =
  "Das Formular konnte nicht überprüft werden. Bitte lade die Seite neu und sende deine Anfrage noch einmal.";
export const EMBED_TOKEN_EXPIRED =
  "Das Formular war zu lange geöffnet. Bitte lade die Seite neu und sende deine Anfrage noch einmal.";

const sign = (key: Buffer, purpose: string, payload: string) =>
  createHmac("sha256", key).update(`${purpose}|${payload}`).digest();

function issue(purpose: string, payload: string): string {
  const [key] = derivedKeys(`embed-${purpose}`);
  return `${payload}.${sign(key as Buffer, purpose, payload).toString("base64url")}`;
}

/** The payload of a genuine token, or null. */
function open(purpose: string, token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const genuine = derivedKeys(`embed-${purpose}`).some((key) => {
    const expected = sign(key, purpose, payload);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return genuine ? payload : null;
}

const seconds = (now: number) => Math.floor(now / 1000);

/** A new token for the framed form (rendered as its hidden field). */
export function embedFormToken(now = Date.now()): string {
  return issue("form", String(seconds(now)));
}

/** Checks the framed form's token: forged or malformed → 403, older than a day → 403 (expired). */
export function checkEmbedFormToken(token: unknown, now = Date.now()): Result {
  const payload = open("form", token);
  if (payload === null || !/^\d{1,12}$/.test(payload)) return failure(403, EMBED_TOKEN_INVALID);
  const age = seconds(now) - Number(payload);
  if (age < -60 || age > EMBED_FORM_TOKEN_SECONDS) return failure(403, EMBED_TOKEN_EXPIRED);
  return { ok: true };
}

/** The "gesendet" token naming the request just sent from the frame (for the redirect's URL). */
export function embedSentToken(requestId: number, now = Date.now()): string {
  return issue("sent", `${requestId}-${seconds(now) + EMBED_SENT_TOKEN_SECONDS}`);
}

/** The request a "gesendet" token names, or null (forged, malformed, expired). */
export function embedSentRequest(token: string | null, now = Date.now()): number | null {
  const payload = open("sent", token);
  const match = payload ? /^(\d{1,15})-(\d{1,12})$/.exec(payload) : null;
  if (!match) return null;
  if (Number(match[2]) < seconds(now)) return null;
  return Number(match[1]);
}

/**
 * The attribution of the framed form: the utm_* of its address (embed.js passes the host page's),
 * the host page as referrer — its full address (origin and path) when embed.js passed it in `ref`,
 * else the frame's Referer (mostly the origin only) — and the landing path `/embed`.
 */
export function embedAttribution(request: Request): Attribution {
  const url = new URL(request.url);
  const own = [url.host];
  try {
    own.push(new URL(env().APP_URL).host);
  } catch {}
  // `ref` first: the host page's own address says more than the Referer's origin.
  const passed = attributionFromVisit(url, url.searchParams.get(EMBED_PAGE_PARAM), own);
  return passed.referrer ? passed : attributionFromVisit(url, request.headers.get("referer"), own);
}
