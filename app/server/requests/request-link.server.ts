import { createHmac, timingSafeEqual } from "node:crypto";
import { subMonths } from "date-fns";
import { eq } from "drizzle-orm";
import { requests } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { derivedKeys } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { failure, type Result } from "../platform/result.server";

/**
 * The visitor's signed link to their own request (receipt mail, cancellation page):
 * `/meine-anfrage?token=<id>.<signature>`. The HMAC (key derived from SESSION_SECRET, every secret
 * of the rotation list verifies) covers the request's id and the hash of its visitor secret, so a
 * link names one request only and dies with it: erased or anonymised rows have no secret hash, and
 * a new row under a reused id has another. It expires with the request's retention (N months
 * without a change, the same rule the daily job deletes by), even before the job has run.
 * Following it puts the request into the browser's history cookie (ADR 220).
 */
export const REQUEST_LINK_PATH = "/meine-anfrage";
/** Where the link leads after restoring the history: the history (default) or the booking page. */
export const REQUEST_LINK_TARGETS = ["termin"] as const;
export type RequestLinkTarget = (typeof REQUEST_LINK_TARGETS)[number];

/** Cookie entries restored from a link carry this prefix instead of the raw visitor secret. */
const ENTRY_PREFIX = "l:";

export const REQUEST_LINK_INVALID =
  "Dieser Link ist ungültig oder die Anfrage wurde inzwischen gelöscht. Wenn du uns eine neue Anfrage schicken möchtest, findest du das Formular auf der Startseite.";
export const REQUEST_LINK_EXPIRED =
  "Dieser Link ist abgelaufen: Wir bewahren Anfragen und ihre Links nur eine begrenzte Zeit auf. Wenn du uns eine neue Anfrage schicken möchtest, findest du das Formular auf der Startseite.";

const keys = () => derivedKeys("visitor-request-link");

const sign = (key: Buffer, id: number, secretHash: string) =>
  createHmac("sha256", key).update(`${id}|${secretHash}`).digest();

const matches = (id: number, secretHash: string, signature: string) => {
  const given = Buffer.from(signature, "base64url");
  return keys().some((key) => {
    const expected = sign(key, id, secretHash);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
};

function signature(id: number, secretHash: string) {
  const [key] = keys();
  return sign(key as Buffer, id, secretHash).toString("base64url");
}

/** The link's query token for a request row (null when the row has no visitor secret). */
export function requestLinkToken(row: { id: number; visitorSecretHash: string | null }) {
  return row.visitorSecretHash ? `${row.id}.${signature(row.id, row.visitorSecretHash)}` : null;
}

/** The same-origin path of a request's link (null when the request cannot have one). */
export function requestLinkPath(requestId: number, target?: RequestLinkTarget): string | null {
  const row = db()
    .select({ id: requests.id, visitorSecretHash: requests.visitorSecretHash })
    .from(requests)
    .where(eq(requests.id, requestId))
    .get();
  const token = row ? requestLinkToken(row) : null;
  if (!token) return null;
  const query = new URLSearchParams({ token, ...(target ? { ziel: target } : {}) });
  return `${REQUEST_LINK_PATH}?${query}`;
}

/** The absolute link for mails (APP_URL). */
export function requestLinkUrl(requestId: number, target?: RequestLinkTarget): string | null {
  const path = requestLinkPath(requestId, target);
  return path ? `${env().APP_URL}${path}` : null;
}

export type RequestLinkResult = Result<{ requestId: number; entrySecret: string }>;

/**
 * Checks a link token. Forged, malformed, unknown, erased or anonymised: one 404 with one message
 * (the answer does not tell a forger which ids exist); past the retention: 410.
 */
export function verifyRequestLink(token: string | null, now = new Date()): RequestLinkResult {
  const invalid = failure(404, REQUEST_LINK_INVALID);
  if (!token || token.length > 200) return invalid;
  const [idText, sig, extra] = token.split(".");
  if (!idText || !sig || extra !== undefined || !/^\d{1,15}$/.test(idText)) return invalid;
  const id = Number(idText);
  const row = db()
    .select({ hash: requests.visitorSecretHash, updatedAt: requests.updatedAt })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  // An unknown id is checked against a hash no request has: same cost, same answer.
  const genuine = matches(id, row?.hash ?? "\u0000no-request", sig);
  if (!row?.hash || !genuine) return invalid;
  const { requestMonths } = getConfiguration().retention;
  if (row.updatedAt < subMonths(now, requestMonths)) return failure(410, REQUEST_LINK_EXPIRED);
  return { ok: true, requestId: id, entrySecret: `${ENTRY_PREFIX}${sig}` };
}

/** Whether a history-cookie entry restored from a link still belongs to the row (same signature). */
export function linkEntryMatches(id: number, secretHash: string, entrySecret: string): boolean {
  if (!entrySecret.startsWith(ENTRY_PREFIX)) return false;
  return matches(id, secretHash, entrySecret.slice(ENTRY_PREFIX.length));
}
