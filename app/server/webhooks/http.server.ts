import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { env } from "../platform/env.server";
import { type Failure, failure, type Ok } from "../platform/result.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { refusedAddress, refusedUrl, type TargetPolicy, targetPolicy } from "./address.server";

/** Most of a receiver's answer that is read (the rest is discarded; it only feeds the error text). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * An outgoing call that failed (ADR 310): a 502 — a 504 after the time-out — with the German
 * reason; `upstream` is the receiver's own HTTP status when it answered.
 */
export type Failed = Failure & { upstream?: number };

const failed = (error: string, upstream?: number, status = 502): Failed =>
  upstream === undefined ? failure(status, error) : { ...failure(status, error), upstream };

/** Delivered: `status` is the receiver's 2xx. */
export type PostResult = Ok<{ status: number }> | Failed;

type Resolver = (
  hostname: string,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, callback) =>
  dnsLookup(hostname, { all: true, verbatim: true }, callback);

let resolver: Resolver = systemResolver;
registerTestHooks({
  setResolver(next?: Resolver) {
    resolver = next ?? systemResolver;
  },
});

/**
 * The connection's lookup: resolve, refuse every non-allowed address, connect to the checked one
 * (no second resolution in between, so DNS rebinding cannot swap the address after the check).
 */
export function checkedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const family = typeof options === "object" ? options.family : undefined;
      const candidates = addresses.filter((a) => !family || a.family === family);
      const allowed = candidates.find((a) => refusedAddress(a.address, policy) === null);
      if (!allowed) {
        const reason = candidates[0]
          ? refusedAddress(candidates[0].address, policy)
          : "Keine Adresse gefunden.";
        const refused = Object.assign(new Error(reason ?? "Adresse nicht erlaubt."), {
          code: "EWEBHOOKTARGET",
        });
        return callback(refused, "", 0);
      }
      if (typeof options === "object" && options.all) {
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [allowed]);
      }
      callback(null, allowed.address, allowed.family);
    });
  };
}

/**
 * One request on a checked connection (`checkedLookup`), settled once: by `onResponse` through
 * `finish`, by the time-out or by a socket error (the first result counts; the timer is cleared
 * and the request closed then). Webhooks, calendar feeds and CalDAV (ADR 335) share it.
 */
export function requestOnce<R>(
  url: URL,
  policy: TargetPolicy,
  options: { method: string; headers: Record<string, string> },
  body: string | Buffer | undefined,
  on: {
    timeoutMs: number;
    timeout: () => R;
    error: (error: NodeJS.ErrnoException) => R;
    response: (res: http.IncomingMessage, finish: (result: R) => void) => void;
  },
): Promise<R> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<R>((resolve) => {
    let settled = false;
    const finish = (result: R) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      req.destroy();
    };
    const req = client.request(
      url,
      { ...options, lookup: checkedLookup(policy), agent: false },
      (res) => on.response(res, finish),
    );
    const timer = setTimeout(() => finish(on.timeout()), on.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => finish(on.error(error)));
    req.end(body);
  });
}

/**
 * An answer read up to `maxBytes` (a larger declared or actual length finishes with `tooLarge`;
 * the request is closed then), then `done` with its text; a broken answer finishes with `error`.
 */
export function readCapped<R>(
  res: http.IncomingMessage,
  maxBytes: number,
  finish: (result: R) => void,
  on: { tooLarge: R; done: (body: string) => R; error: (error: Error) => R },
) {
  if (Number(res.headers["content-length"]) > maxBytes) return finish(on.tooLarge);
  let received = 0;
  const chunks: Buffer[] = [];
  res.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) return finish(on.tooLarge);
    chunks.push(chunk);
  });
  res.on("end", () => finish(on.done(Buffer.concat(chunks).toString("utf8"))));
  res.on("error", (error) => finish(on.error(error)));
}

/**
 * One request under the SSRF rules (before and after DNS resolution), no redirect followed, the
 * whole exchange within WEBHOOK_TIMEOUT_MS; `onResponse` settles it with `finish` (the first
 * result counts; the request is closed then).
 */
function checkedRequest<R>(
  target: string,
  policy: TargetPolicy,
  options: { method: "GET" | "POST"; headers: Record<string, string> },
  body: string | undefined,
  onResponse: (res: http.IncomingMessage, finish: (result: R | Failed) => void) => void,
): Promise<R | Failed> {
  const refused = refusedUrl(target, policy);
  if (refused) return Promise.resolve(failed(refused));
  const timeoutMs = env().WEBHOOK_TIMEOUT_MS;
  return requestOnce<R | Failed>(new URL(target), policy, options, body, {
    timeoutMs,
    timeout: () => failed(`Zeitüberschreitung nach ${timeoutMs} ms.`, undefined, 504),
    error: (error) =>
      failed(
        error.code === "EWEBHOOKTARGET"
          ? error.message
          : `Verbindung fehlgeschlagen: ${error.code ?? error.message}`,
      ),
    response: onResponse,
  });
}

/**
 * POSTs a webhook body: no redirect is followed (3xx is a failure), the whole exchange has a
 * time-out (WEBHOOK_TIMEOUT_MS), at most MAX_RESPONSE_BYTES of the answer are read, and the target
 * obeys the SSRF rules before and after DNS resolution.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  policy: TargetPolicy = targetPolicy(),
): Promise<PostResult> {
  const request = {
    method: "POST" as const,
    headers: {
      ...headers,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      "user-agent": "Anfrage-Portal-Webhooks/1",
    },
  };
  return checkedRequest<PostResult>(target, policy, request, body, (res, finish) => {
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) {
      // Delivered as soon as a 2xx status arrives: a slow or endless body must not turn it into
      // a failure (and a duplicate delivery). The body is not needed; the socket is closed.
      finish({ ok: true, status });
      res.destroy();
      return;
    }
    let received = 0;
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_RESPONSE_BYTES) {
        res.destroy();
        settle();
        return;
      }
      chunks.push(chunk);
    });
    const settle = () => {
      const text = Buffer.concat(chunks).toString("utf8").slice(0, 200).replace(/\s+/g, " ");
      finish(
        failed(
          status >= 300 && status < 400
            ? `HTTP ${status}: Weiterleitungen werden nicht verfolgt.`
            : `HTTP ${status}${text ? `: ${text}` : ""}`,
          status,
        ),
      );
    };
    res.on("end", settle);
    res.on("error", settle);
  });
}

export type GetResult = Ok<{ body: string }> | Failed;

/**
 * GETs a text document under the same rules as a webhook POST (ADR 266's calendar feeds): SSRF
 * checks before and after DNS resolution, no redirect followed, the whole exchange within
 * WEBHOOK_TIMEOUT_MS, and an answer larger than `maxBytes` is refused (the socket is closed).
 */
export function getChecked(
  target: string,
  maxBytes: number,
  policy: TargetPolicy = targetPolicy(),
  accept = "text/calendar, text/plain;q=0.5",
): Promise<GetResult> {
  const request = {
    method: "GET" as const,
    headers: { accept, "user-agent": "Anfrage-Portal-Kalender/1" },
  };
  return checkedRequest<GetResult>(target, policy, request, undefined, (res, finish) => {
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400)
      return finish(failed(`HTTP ${status}: Weiterleitungen werden nicht verfolgt.`, status));
    if (status < 200 || status >= 300) return finish(failed(`HTTP ${status}`, status));
    readCapped<GetResult>(res, maxBytes, finish, {
      tooLarge: failed(`Antwort größer als ${Math.round(maxBytes / 1024 / 1024)} MB.`),
      done: (body) => ({ ok: true, body }),
      error: (error) => failed(`Abbruch: ${error.message}`),
    });
  });
}
