import { and, eq, inArray } from "drizzle-orm";
import { redirect } from "react-router";
import { requests } from "~db/schema";
import { signedCookie } from "../http/signed-cookie.server";
import { hashToken, randomToken, safeEqual } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { failurePage } from "../platform/result.server";
import { linkEntryMatches, verifyRequestLink } from "../requests/request-link.server";

/** How many of a visitor's requests the history cookie remembers (newest kept). */
const MAX_REMEMBERED = 30;
type Entry = { id: number; s: string };

/**
 * The visitor's own requests: signed, httpOnly, one year. Each entry carries a per-request secret
 * whose hash is on the row, so neither guessing ids nor replaying someone's id list reveals data.
 */
export const visitorCookie = signedCookie("visitor_requests", 365 * 24 * 3600);

async function readEntries(request: Request): Promise<Entry[]> {
  const value = await visitorCookie().parse(request.headers.get("cookie"));
  if (!Array.isArray(value)) return [];
  return value.filter(
    (e): e is Entry =>
      !!e && typeof e === "object" && Number.isInteger(e.id) && e.id > 0 && typeof e.s === "string",
  );
}

/** A new secret for a request about to be created: the raw value for the cookie, the hash for the row. */
export function newVisitorSecret() {
  const secret = randomToken(18);
  return { secret, hash: hashToken(secret) };
}

/** Set-Cookie value remembering one more request of this visitor. */
export async function rememberVisitorRequest(request: Request, id: number, secret: string) {
  const entries = (await readEntries(request)).filter((e) => e.id !== id);
  entries.push({ id, s: secret });
  return visitorCookie().serialize(entries.slice(-MAX_REMEMBERED));
}

/** Set-Cookie value without the given request (after the visitor withdrew it). */
export async function forgetVisitorRequest(request: Request, id: number) {
  const entries = (await readEntries(request)).filter((e) => e.id !== id);
  return visitorCookie().serialize(entries);
}

/**
 * Whether a cookie entry belongs to the row: the raw secret of the submitting browser, or the
 * signature of the request's link (a browser that followed the link from the receipt, ADR 220).
 */
function entryMatches(entry: Entry, secretHash: string | null | undefined): boolean {
  if (!secretHash) return false;
  return (
    linkEntryMatches(entry.id, secretHash, entry.s) || safeEqual(secretHash, hashToken(entry.s))
  );
}

/** Ids of the requests this visitor sent (verified against the rows' secret hashes), newest first. */
export async function getVisitorRequestIds(request: Request): Promise<number[]> {
  const entries = await readEntries(request);
  if (!entries.length) return [];
  const rows = db()
    .select({ id: requests.id, hash: requests.visitorSecretHash })
    .from(requests)
    .where(
      inArray(
        requests.id,
        entries.map((e) => e.id),
      ),
    )
    .all();
  const hashes = new Map(rows.map((r) => [r.id, r.hash]));
  return entries
    .filter((e) => entryMatches(e, hashes.get(e.id)))
    .map((e) => e.id)
    .reverse();
}

export async function visitorOwnsRequest(request: Request, requestId: number): Promise<boolean> {
  const entry = (await readEntries(request)).find((e) => e.id === requestId);
  if (!entry) return false;
  const row = db()
    .select({ hash: requests.visitorSecretHash })
    .from(requests)
    .where(and(eq(requests.id, requestId)))
    .get();
  return entryMatches(entry, row?.hash);
}

/**
 * Follows the signed link from the receipt or the cancellation page (`/meine-anfrage?token=…`):
 * the request joins this browser's history (no earlier cookie needed), then the visitor lands on
 * the history or, with `ziel=termin`, on the booking page. A forged, expired or dead link throws a
 * German 404/410 for the page's error boundary.
 */
export async function followRequestLink(request: Request) {
  const url = new URL(request.url);
  const checked = verifyRequestLink(url.searchParams.get("token"));
  if (!checked.ok) throw failurePage(checked);
  const id = checked.requestId;
  // The answer sets this browser's cookie: never from a shared cache.
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  // A browser that already holds the request keeps its entry as it is.
  if (!(await visitorOwnsRequest(request, id)))
    headers.append("Set-Cookie", await rememberVisitorRequest(request, id, checked.entrySecret));
  if (url.searchParams.get("ziel") === "termin")
    return redirect(`/termin?anfrage=${id}`, { headers });
  // The history says what happened, in place (?geoeffnet=N, shown only for a request it holds).
  return redirect(`/?geoeffnet=${id}#history`, { headers });
}
