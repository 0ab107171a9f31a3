import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "~db/schema";
import { db } from "../platform/db.server";

const TTL_MS = 24 * 3600_000;
const MAX_BODY = 1024 * 1024;

/** Who the key belongs to: the same key from another client is another request. */
function scopeOf(request: Request, clientIp: string) {
  const url = new URL(request.url);
  const auth =
    request.headers.get("authorization") ??
    request.headers.get("cookie")?.match(/__session=[^;]+/)?.[0];
  return `${request.method} ${url.pathname} ${auth ?? clientIp}`;
}

/**
 * Stored answers may hold secrets (a login's session token, an activation password), so the body is
 * encrypted with a key derived from the caller's Idempotency-Key, which the server never stores:
 * the database alone cannot reveal them.
 */
function cipherKey(scope: string, key: string) {
  return createHash("sha256").update(`enc\n${scope}\n${key}`).digest();
}
function seal(body: string, secret: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secret, iv);
  const data = Buffer.concat([cipher.update(body, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64")).join(".");
}
function open(sealed: string, secret: Buffer): string | null {
  try {
    const [iv, tag, data] = sealed.split(".").map((part) => Buffer.from(part, "base64"));
    const decipher = createDecipheriv("aes-256-gcm", secret, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** A claimed key whose first call has not answered yet; after this long it counts as abandoned. */
const PENDING = 0;
const PENDING_STALE_MS = 10 * 60_000;
/** The answer while the first call with the same key is still at work (no du/Sie: shared by all). */
export const IDEMPOTENCY_IN_PROGRESS =
  "Die erste Übertragung wird noch verarbeitet. Bitte in einem Moment erneut senden.";
const inProgress = () =>
  Response.json(
    { error: IDEMPOTENCY_IN_PROGRESS },
    { status: 409, headers: { "Retry-After": "2", "Idempotent-In-Progress": "true" } },
  );
/** Where the stored answer's Set-Cookie headers are kept, sealed like the body. */
const SEALED_COOKIES = "x-sealed-set-cookie";

function replay(stored: typeof idempotencyKeys.$inferSelect, secret: Buffer): Response | null {
  const body = open(stored.body, secret);
  if (body === null) return null;
  const { [SEALED_COOKIES]: sealedCookies, ...plain } = stored.headers;
  const headers = new Headers({ ...plain, "Idempotent-Replayed": "true" });
  const cookies = sealedCookies ? open(sealedCookies, secret) : null;
  for (const cookie of cookies ? (JSON.parse(cookies) as string[]) : []) {
    headers.append("Set-Cookie", cookie);
  }
  return new Response(body, { status: stored.status, headers });
}

/**
 * At boot no call is at work (one process), so a claim left by a crash mid-call is abandoned: it is
 * dropped, and the client's retry runs at once instead of answering 409 for PENDING_STALE_MS.
 */
export function releaseAbandonedClaims() {
  return db().delete(idempotencyKeys).where(eq(idempotencyKeys.status, PENDING)).run().changes;
}

/**
 * Answers a repeated `Idempotency-Key` with the first answer, so the API client's retries never
 * create a second request, booking or mail. Only completed non-5xx answers are remembered, with
 * their cookies (a visitor whose answer was lost still gets the cookie of their request). The key
 * is claimed before the work: a retry arriving while the first call is still at work (the client
 * gave up waiting) is answered 409 instead of doing the work twice (ADR 211).
 */
export async function withIdempotency(
  request: Request,
  clientIp: string,
  next: () => Promise<Response>,
): Promise<Response> {
  const key = request.headers.get("idempotency-key");
  if (!key || request.method === "GET" || request.method === "HEAD" || key.length > 200)
    return next();
  const scope = scopeOf(request, clientIp);
  const secret = cipherKey(scope, key);
  const id = createHash("sha256").update(`${scope}\n${key}`).digest("hex");
  const stored = db().select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id)).get();
  if (stored && stored.status !== PENDING) {
    const replayed = replay(stored, secret);
    if (replayed) return replayed;
  }
  if (stored?.status === PENDING && stored.createdAt.getTime() > Date.now() - PENDING_STALE_MS) {
    return inProgress();
  }
  // Claimed (an abandoned claim is taken over); better-sqlite3 is synchronous, so of two parallel
  // calls only one inserts and the other one finds the claim above.
  if (stored) db().delete(idempotencyKeys).where(eq(idempotencyKeys.id, id)).run();
  const claimed = db()
    .insert(idempotencyKeys)
    .values({ id, status: PENDING, headers: {}, body: "" })
    .onConflictDoNothing()
    .run();
  if (!claimed.changes) return inProgress();
  const release = () =>
    db()
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.status, PENDING)))
      .run();

  let response: Response;
  try {
    response = await next();
  } catch (error) {
    release();
    throw error;
  }
  const type = response.headers.get("content-type") ?? "";
  const body =
    response.status < 500 &&
    (type.includes("json") || type.includes("text/plain") || !response.body)
      ? await response.clone().text()
      : null;
  if (body === null || body.length > MAX_BODY) {
    release();
    return response;
  }
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "location"]) {
    const value = response.headers.get(name);
    if (value) headers[name] = value;
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers[SEALED_COOKIES] = seal(JSON.stringify(cookies), secret);
  db()
    .update(idempotencyKeys)
    .set({ status: response.status, headers, body: seal(body, secret) })
    .where(eq(idempotencyKeys.id, id))
    .run();
  if (Math.random() < 0.01) {
    db()
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - TTL_MS)))
      .run();
  }
  return response;
}
