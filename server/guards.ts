import { Readable, Transform, type TransformCallback } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { BODY_PACE, type BodyPace, paceWatch, refuseTooSlow } from "./body-pace.ts";

/**
 * The guards that run before React Router (ADR 080): a bad Host header or a NUL byte in the URL
 * would fail inside the adapter with a 500; foreign origins, unknown content types and oversized
 * bodies are refused before a byte of the body is buffered.
 */

/** JSON, url-encoded and non-upload bodies (the same figure as app/server/http/http.server.ts). */
export const SMALL_BODY_MAX_BYTES = 1024 * 1024;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
export const BODY_TYPES = new Set([
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
]);
// A DNS name or IPv4 address, or a bracketed IPv6 literal, with an optional port.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export type GuardOptions = {
  /** APP_URL: its origin is always accepted. */
  appUrl: string;
  /** TRUST_PROXY: only then is X-Forwarded-Host the host the browser saw. */
  trustProxy: string;
  /** The absolute cap on a multipart body: the configured total upload limit plus an allowance. */
  multipartCap: () => number;
  /** A body that sends nothing for this long is cut off (ms; default BODY_IDLE_MS). */
  bodyIdleMs?: number;
  /** The minimum pace of a body (default BODY_PACE, server/body-pace.ts). */
  bodyPace?: BodyPace;
};

/**
 * A request body that stalls this long (no byte arrives) ends its connection: a request in work
 * holds one of the bounded slots (ADR 195, 197), and a client trickling bodies would keep them until
 * Node's request timeout (300 s). Generous for a phone on a bad connection, which still sends.
 */
export const BODY_IDLE_MS = 20_000;

function refuse(req: Request, res: Response, status: number, message: string) {
  if (status === 413 || status === 400) res.setHeader("Connection", "close");
  if (req.path.startsWith("/api/")) {
    res.status(status).json({ success: false, error: message, message });
  } else {
    res.status(status).type("text/plain; charset=utf-8").send(message);
  }
}

/** Host header and URL: 400 before anything parses them. */
export function requestLineGuard(req: Request, res: Response, next: NextFunction) {
  const host = req.headers.host;
  if (host !== undefined && !HOST.test(host)) {
    refuse(req, res, 400, "Ungültiger Host-Header.");
    return;
  }
  if (/%00|\0/i.test(req.originalUrl)) {
    refuse(req, res, 400, "Die Adresse enthält ungültige Zeichen.");
    return;
  }
  try {
    new URL(req.originalUrl, "http://localhost");
    decodeURIComponent(req.path);
  } catch {
    refuse(req, res, 400, "Die Adresse enthält ungültige Zeichen.");
    return;
  }
  next();
}

/**
 * CSRF: a mutating request that does not bring its own Bearer token may rely on a cookie, so its
 * Origin must be ours (never `null`); without an Origin, `Sec-Fetch-Site: cross-site` is refused.
 * "Ours" is APP_URL's origin or the request's own, compared as scheme, host and port (ADR 262:
 * `http://portal` is not `https://portal`, nor `https://portal:8443`).
 */
export function originGuard(options: GuardOptions) {
  const appOrigin = new URL(options.appUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!MUTATING.has(req.method) || /^bearer /i.test(req.get("authorization") ?? "")) {
      next();
      return;
    }
    const origin = req.get("origin");
    const forwarded = options.trustProxy === "fly" ? req.get("x-forwarded-host") : undefined;
    const host = forwarded?.split(",")[0].trim() || req.get("host");
    const proto =
      (options.trustProxy === "fly" ? req.get("x-forwarded-proto")?.split(",")[0].trim() : "") ||
      ("encrypted" in req.socket && req.socket.encrypted ? "https" : "http");
    let ownOrigin: string | undefined;
    try {
      ownOrigin = host ? new URL(`${proto}://${host}`).origin : undefined;
    } catch {}
    let allowed: boolean;
    if (origin === undefined) {
      allowed = req.get("sec-fetch-site") !== "cross-site";
    } else {
      let parsed: URL | undefined;
      try {
        parsed = origin === "null" ? undefined : new URL(origin);
      } catch {}
      allowed = !!parsed && (parsed.origin === appOrigin || parsed.origin === ownOrigin);
    }
    if (!allowed) {
      refuse(req, res, 403, "Anfrage von fremder Herkunft abgelehnt.");
      return;
    }
    next();
  };
}

class ByteCap extends Transform {
  private seen = 0;
  private readonly cap: number;
  private readonly onExceeded: () => void;
  private readonly onBytes: (bytes: number) => void;
  constructor(cap: number, onExceeded: () => void, onBytes: (bytes: number) => void = () => {}) {
    super();
    this.cap = cap;
    this.onExceeded = onExceeded;
    this.onBytes = onBytes;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.seen += chunk.length;
    this.onBytes(chunk.length);
    if (this.seen > this.cap) {
      this.onExceeded();
      callback(Object.assign(new Error("Request body too large"), { code: "BODY_TOO_LARGE" }));
      return;
    }
    callback(null, chunk);
  }
}

/**
 * Body limits: unknown content types → 415; a declared length over the cap → 413 at once; a
 * chunked body is counted while it streams and cut (413) at the cap; a body that falls behind the
 * minimum pace is cut (408, server/body-pace.ts). The capped stream is handed to the request
 * handler as `res.locals.body` (server/handler.ts); a body read ahead of the request bound
 * (server/body-intake.ts) is streamed from memory.
 */
export function bodyGuard(options: GuardOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    const hasBody =
      req.headers["transfer-encoding"] !== undefined ||
      Number(req.headers["content-length"] ?? "0") > 0;
    if (!hasBody || req.method === "GET" || req.method === "HEAD") {
      next();
      return;
    }
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (!BODY_TYPES.has(type)) {
      refuse(req, res, 415, "Dieses Anfrageformat wird nicht unterstützt.");
      return;
    }
    const cap = type === "multipart/form-data" ? options.multipartCap() : SMALL_BODY_MAX_BYTES;
    const message = `Die Anfrage ist zu groß (höchstens ${Math.floor(cap / 1024 / 1024)} MB).`;
    if (Number(req.headers["content-length"] ?? "0") > cap) {
      refuse(req, res, 413, message);
      return;
    }
    const readAhead = res.locals.readAhead as Buffer | undefined;
    if (readAhead) {
      res.locals.body = Readable.from([readAhead]);
      next();
      return;
    }
    // The pace counts from here: the time a request waited for its slot is not the client's.
    const watch = paceWatch(options.bodyPace ?? BODY_PACE, () => {
      req.unpipe(capped);
      capped.destroy(Object.assign(new Error("Request body too slow"), { code: "BODY_TOO_SLOW" }));
      refuseTooSlow(req, res);
    });
    const capped = new ByteCap(
      cap,
      () => {
        req.unpipe(capped);
        if (!res.headersSent) refuse(req, res, 413, message);
        // The rest of the body is never read: the connection closes once the answer is out.
        res.once("finish", () => req.destroy());
      },
      (bytes) => watch.count(bytes),
    );
    req.on("error", (error) => capped.destroy(error));
    // Cut off a stalled body; once it is complete (or answered) the socket has no time limit again
    // (an AI preparation may work minutes without a byte on the wire).
    const socket = req.socket;
    const stalled = () => socket.destroy();
    socket.setTimeout(options.bodyIdleMs ?? BODY_IDLE_MS, stalled);
    const settle = () => {
      watch.stop();
      socket.setTimeout(0);
      socket.off("timeout", stalled);
    };
    req.once("end", settle);
    res.once("close", settle);
    res.locals.body = req.pipe(capped);
    // A route that answers without reading the body (405, 401, ...): the rest (at most the cap)
    // is read and dropped, so the next request on this keep-alive connection parses cleanly.
    res.once("finish", () => {
      watch.stop();
      if (req.complete || req.destroyed) return;
      req.unpipe(capped);
      capped.destroy();
      req.resume();
    });
    next();
  };
}
