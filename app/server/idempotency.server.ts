import { createHash } from "node:crypto";
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
  const id = createHash("sha256")
    .update(`${scopeOf(request, clientIp)}\n${key}`)
    .digest("hex");
  const stored = db().select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id)).get();
  if (stored) {
    return new Response(stored.body, {
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
        .values({ id, status: response.status, headers, body })
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
