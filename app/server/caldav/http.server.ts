import type { IncomingHttpHeaders } from "node:http";
import { refusedUrl, type TargetPolicy, targetPolicy } from "../webhooks/address.server";
import { readCapped, requestOnce } from "../webhooks/http.server";

/**
 * One CalDAV request (ADR 335): the webhooks' SSRF rules (ADR 141) on the first URL and on every
 * redirect hop — scheme, IP literal before DNS, the resolved address at connect time —, at most
 * MAX_REDIRECTS hops (iCloud moves to pNN-caldav.icloud.com), https only (http solely to a
 * loopback host under the "local" policy: WEBHOOK_ALLOW_LOCAL or a loopback APP_URL outside
 * production), the whole exchange before `deadline`, and an answer larger than `maxBytes` refused
 * with the socket closed. Nothing is retried here; the callers decide.
 */
export const MAX_REDIRECTS = 5;
/** The largest answer read (XML multistatus or iCalendar). */
export const MAX_DAV_BYTES = 2 * 1024 * 1024;

export type DavFailureKind =
  | "dns"
  | "tls"
  | "timeout"
  | "refused"
  | "network"
  | "too-large"
  | "redirects"
  | "auth"
  | "forbidden"
  | "garbage"
  | "http";

export type DavFailure = { ok: false; kind: DavFailureKind; error: string; status?: number };
export type DavAnswer = {
  ok: true;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The URL that answered (after redirects): relative hrefs resolve against it. */
  url: string;
};

export type DavRequest = {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  auth: { username: string; password: string };
  deadline: number;
  maxBytes?: number;
};

const LOOPBACK_HOST = /^(localhost|127(?:\.\d+){3}|\[::1\]|::1)$/i;

/** Why this URL may not be asked (null: it may): the webhook rules plus "http only to loopback". */
export function refusedDavUrl(raw: string, policy: TargetPolicy = targetPolicy()): string | null {
  const refused = refusedUrl(raw, policy);
  if (refused) return refused;
  const url = new URL(raw);
  if (url.protocol === "http:" && !LOOPBACK_HOST.test(url.hostname))
    return "Nur https-Adressen sind erlaubt.";
  return null;
}

const fail = (kind: DavFailureKind, error: string, status?: number): DavFailure =>
  status === undefined ? { ok: false, kind, error } : { ok: false, kind, error, status };

/** A socket or TLS error as a failure kind with a short German reason. */
function networkFailure(error: NodeJS.ErrnoException): DavFailure {
  const code = error.code ?? "";
  if (code === "EWEBHOOKTARGET") return fail("refused", error.message);
  if (/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_NODATA)$/.test(code))
    return fail("dns", `Adresse nicht gefunden (${code}).`);
  if (/CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/i.test(`${code} ${error.message}`))
    return fail("tls", `TLS-Verbindung fehlgeschlagen (${code || "Zertifikat"}).`);
  if (code === "ETIMEDOUT") return fail("timeout", "Zeitüberschreitung.");
  return fail("network", `Verbindung fehlgeschlagen (${code || error.message.slice(0, 60)}).`);
}

/** One hop: the request, its answer read up to the cap, all before the deadline. */
function hop(
  url: URL,
  request: DavRequest,
  policy: TargetPolicy,
): Promise<DavFailure | { status: number; headers: IncomingHttpHeaders; body: string }> {
  const remaining = request.deadline - Date.now();
  if (remaining <= 0) return Promise.resolve(fail("timeout", "Zeitüberschreitung."));
  const maxBytes = request.maxBytes ?? MAX_DAV_BYTES;
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  const basic = Buffer.from(`${request.auth.username}:${request.auth.password}`).toString("base64");
  const headers = {
    "user-agent": "Anfrage-Portal-CalDAV/1",
    authorization: `Basic ${basic}`,
    ...(body ? { "content-length": String(body.length) } : {}),
    ...request.headers,
  };
  return requestOnce<Awaited<ReturnType<typeof hop>>>(
    url,
    policy,
    { method: request.method, headers },
    body,
    {
      timeoutMs: remaining,
      timeout: () => fail("timeout", "Zeitüberschreitung."),
      error: networkFailure,
      response: (res, finish) => {
        const status = res.statusCode ?? 0;
        readCapped(res, maxBytes, finish, {
          tooLarge: fail("too-large", `Antwort größer als ${Math.round(maxBytes / 1048576)} MB.`),
          done: (text) => ({ status, headers: res.headers, body: text }),
          error: networkFailure,
        });
      },
    },
  );
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A CalDAV request following at most MAX_REDIRECTS redirects, each hop checked. Any status is an
 * answer (the caller reads 207, 401, 412 …); failures are the transport's and the rules'.
 */
export async function davRequest(
  target: string,
  request: DavRequest,
  policy: TargetPolicy = targetPolicy(),
): Promise<DavAnswer | DavFailure> {
  let current = target;
  for (let hops = 0; ; hops++) {
    const refused = refusedDavUrl(current, policy);
    if (refused) return fail("refused", refused);
    const url = new URL(current);
    const answer = await hop(url, request, policy);
    if ("ok" in answer) return answer;
    const location = answer.headers.location;
    if (REDIRECTS.has(answer.status) && typeof location === "string" && location) {
      if (hops >= MAX_REDIRECTS)
        return fail("redirects", `Mehr als ${MAX_REDIRECTS} Weiterleitungen.`, answer.status);
      try {
        current = new URL(location, url).toString();
      } catch {
        return fail("garbage", "Ungültige Weiterleitung.", answer.status);
      }
      continue;
    }
    return {
      ok: true,
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
      url: current,
    };
  }
}

/** Whether an answer's Content-Type is XML (multistatus, error bodies). */
export const isXml = (headers: IncomingHttpHeaders) =>
  /\bxml\b/i.test(String(headers["content-type"] ?? ""));
/** Whether an answer's Content-Type is iCalendar. */
export const isCalendar = (headers: IncomingHttpHeaders) =>
  /text\/calendar/i.test(String(headers["content-type"] ?? ""));
