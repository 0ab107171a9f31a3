import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "~db/schema";
import { db } from "./db.server";

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

/**
 * Answers a repeated `Idempotency-Key` with the first answer, so the API client's retries never
 * create a second request, booking or mail. Only completed non-5xx answers are remembered.
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
  const replayed = stored ? open(stored.body, secret) : null;
  if (stored && replayed !== null) {
    return new Response(replayed, {
      status: stored.status,
      headers: { ...stored.headers, "Idempotent-Replayed": "true" },
    });
  }
  const response = await next();
  const type = response.headers.get("content-type") ?? "";
  if (
    response.status < 500 &&
    (type.includes("json") || type.includes("text/plain") || !response.body)
  ) {
    const body = await response.clone().text();
    if (body.length <= MAX_BODY) {
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "location"]) {
        const value = response.headers.get(name);
        if (value) headers[name] = value;
      }
      db()
        .insert(idempotencyKeys)
        .values({ id, status: response.status, headers, body: seal(body, secret) })
        .onConflictDoNothing()
        .run();
      if (Math.random() < 0.01) {
        db()
          .delete(idempotencyKeys)
          .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - TTL_MS)))
          .run();
      }
    }
  }
  return response;
}
