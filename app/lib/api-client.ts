/**
 * Browser client for the JS widgets that call `/api` (spec §7): a 60 s time-out, up to 3 retries
 * 1 s apart on time-out, network error and 5xx (never on 4xx), an `Idempotency-Key` on every
 * non-GET call (shared by its retries, so the server answers a retry with the first answer), German
 * error texts (§8) and a move to the login page on 401. The session cookie travels by itself.
 */

import { loginPath } from "./return-path";

/** Time-out per attempt in ms (the spec's default; the booking dialog is the only caller). */
export const API_TIMEOUT_MS = 60_000;
export const API_MAX_RETRIES = 3;
export const API_RETRY_DELAY_MS = 1000;

export const NETWORK_ERROR_MESSAGE = "Netzwerk-Fehler: Server nicht erreichbar oder Timeout";
export const SESSION_EXPIRED_MESSAGE = "Sitzung abgelaufen. Bitte melden Sie sich erneut an.";

export type ApiErrorReason = "http" | "timeout" | "network" | "invalid-response";

/** A failed call; `message` is German and ready to show (the server's own text when it sent one). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly reason: ApiErrorReason;
  /** True when `message` is the server's `{error}`/`{message}` text rather than a default. */
  readonly fromServer: boolean;
  constructor(
    message: string,
    init: { status?: number; body?: unknown; reason: ApiErrorReason; fromServer?: boolean },
  ) {
    super(message);
    this.name = "ApiError";
    this.status = init.status ?? 0;
    this.body = init.body;
    this.reason = init.reason;
    this.fromServer = init.fromServer ?? false;
  }
}

export type ApiFetchOptions = {
  method?: string;
  /** Sent as JSON (sets Content-Type). */
  json?: unknown;
  /** Sent as multipart/form-data. */
  formData?: FormData;
  signal?: AbortSignal;
  headers?: HeadersInit;
  /** Reuse a key across separate calls of one logical operation (default: a new one per call). */
  idempotencyKey?: string;
};

export type ApiClientDeps = {
  fetch?: typeof fetch;
  /** Prefix for relative paths (tests: 'http://localhost'); the browser needs none. */
  baseUrl?: string;
  sleep?: (ms: number) => Promise<void>;
  /** Starts a time-out; returns its cancel function. */
  startTimer?: (onTimeout: () => void, ms: number) => () => void;
  /** Where a 401 sends the browser. */
  navigate?: (url: string) => void;
  randomKey?: () => string;
};

function defaultRandomKey() {
  // getRandomValues also works on plain http (randomUUID needs a secure context).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function defaultNavigate(url: string) {
  window.location.assign(url);
}

function loginUrl() {
  if (typeof window === "undefined") return "/admin/login";
  return loginPath(window.location.pathname + window.location.search);
}

/** `/api/...` and absolute URLs stay; other paths are taken relative to `/api`. */
export function apiUrl(path: string, baseUrl = "") {
  if (/^https?:\/\//.test(path)) return path;
  if (path === "/api" || path.startsWith("/api/") || path.startsWith("/api?"))
    return baseUrl + path;
  return `${baseUrl}/api${path.startsWith("/") ? "" : "/"}${path}`;
}

function serverMessage(body: unknown): string | null {
  if (body && typeof body === "object") {
    for (const key of ["error", "message"] as const) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === "string" && value.trim()) return value;
    }
  }
  return null;
}

type Outcome =
  | { type: "response"; response: Response; text: string }
  | { type: "timeout" }
  | { type: "network"; error: unknown };

export function createApiClient(deps: ApiClientDeps = {}) {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const startTimer =
    deps.startTimer ??
    ((fn: () => void, ms: number) => {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    });
  const navigate = deps.navigate ?? defaultNavigate;
  const randomKey = deps.randomKey ?? defaultRandomKey;

  return async function apiFetch<T = unknown>(
    path: string,
    options: ApiFetchOptions = {},
  ): Promise<T> {
    const hasBody = options.json !== undefined || options.formData !== undefined;
    const method = (options.method ?? (hasBody ? "POST" : "GET")).toUpperCase();
    const headers = new Headers(options.headers);
    if (!headers.has("accept")) headers.set("accept", "application/json");
    let body: BodyInit | undefined;
    if (options.formData !== undefined) body = options.formData;
    else if (options.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.json);
    }
    if (method !== "GET" && method !== "HEAD" && !headers.has("idempotency-key"))
      headers.set("idempotency-key", options.idempotencyKey ?? randomKey());
    const url = apiUrl(path, deps.baseUrl);
    const { signal } = options;
    const doFetch = deps.fetch ?? globalThis.fetch;

    async function attempt(timeoutMs: number): Promise<Outcome> {
      const controller = new AbortController();
      let timedOut = false;
      const cancelTimer = startTimer(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort);
      try {
        const response = await doFetch(url, {
          method,
          headers,
          body,
          credentials: "same-origin",
          signal: controller.signal,
        });
        // The body counts towards the time-out as well.
        const text = await response.text();
        return { type: "response", response, text };
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        return timedOut ? { type: "timeout" } : { type: "network", error };
      } finally {
        cancelTimer();
        signal?.removeEventListener("abort", onAbort);
      }
    }

    let lastError: ApiError | undefined;
    for (let n = 0; n <= API_MAX_RETRIES; n++) {
      if (n > 0) await sleep(API_RETRY_DELAY_MS);
      if (signal?.aborted) throw signal.reason;
      const outcome = await attempt(API_TIMEOUT_MS);

      if (outcome.type === "timeout") {
        lastError = new ApiError(NETWORK_ERROR_MESSAGE, { reason: "timeout" });
        continue;
      }
      if (outcome.type === "network") {
        lastError = new ApiError(NETWORK_ERROR_MESSAGE, { reason: "network" });
        continue;
      }

      const { response, text } = outcome;
      let parsed: unknown;
      let parseFailed = false;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parseFailed = true;
          parsed = text;
        }
      }
      const isJson = (response.headers.get("content-type") ?? "").includes("json");

      if (response.ok) {
        if (parseFailed && isJson) {
          throw new ApiError("Ungültige Antwort vom Server", {
            status: response.status,
            body: text,
            reason: "invalid-response",
          });
        }
        return parsed as T;
      }

      const fromServer = serverMessage(parsed);
      if (response.status === 401) {
        navigate(loginUrl());
        throw new ApiError(fromServer ?? SESSION_EXPIRED_MESSAGE, {
          status: 401,
          body: parsed,
          reason: "http",
          fromServer: !!fromServer,
        });
      }
      const error = new ApiError(fromServer ?? `Server-Fehler: ${response.status}`, {
        status: response.status,
        body: parsed,
        reason: "http",
        fromServer: !!fromServer,
      });
      if (response.status < 500) throw error;
      lastError = error;
    }
    throw lastError ?? new ApiError(NETWORK_ERROR_MESSAGE, { reason: "network" });
  };
}

/** The app's client: `await apiFetch<{ slots: Slot[] }>('/api/calcom/available-slots', { json })`. */
export const apiFetch = createApiClient();
