import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { API_RETRY_DELAY_MS, ApiError, apiUrl, createApiClient } from "./api-client";

const BASE = "http://localhost";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let sleeps: number[];
let timeouts: number[];
let navigations: string[];
let keys: number;

/** Time-outs started by the client and not yet cancelled (see `hang`). */
let pendingTimeouts: Set<() => void>;

/**
 * A handler that never answers: once the request has reached it, the client's pending time-out
 * fires. The time-out never races a slow test machine (it fires only after the server saw the call).
 */
async function hang(): Promise<never> {
  setTimeout(() => {
    for (const fire of pendingTimeouts) fire();
  }, 0);
  return delay("infinite") as Promise<never>;
}

function client() {
  return createApiClient({
    baseUrl: BASE,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    startTimer: (fn, ms) => {
      timeouts.push(ms);
      pendingTimeouts.add(fn);
      return () => pendingTimeouts.delete(fn);
    },
    navigate: (url) => navigations.push(url),
    randomKey: () => `key-${++keys}`,
  });
}

beforeEach(() => {
  pendingTimeouts = new Set();
  sleeps = [];
  timeouts = [];
  navigations = [];
  keys = 0;
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("apiFetch", () => {
  it("resolves paths below /api", () => {
    expect(apiUrl("/api/requests")).toBe("/api/requests");
    expect(apiUrl("requests")).toBe("/api/requests");
    expect(apiUrl("/admin/users", BASE)).toBe(`${BASE}/api/admin/users`);
    expect(apiUrl("https://example.com/x")).toBe("https://example.com/x");
  });

  it("parses JSON and sends no Idempotency-Key on GET", async () => {
    let key: string | null = "unset";
    server.use(
      http.get(`${BASE}/api/configuration`, ({ request }) => {
        key = request.headers.get("idempotency-key");
        return HttpResponse.json({ infoBanner: { enabled: true } });
      }),
    );
    const data = await client()<{ infoBanner: { enabled: boolean } }>("/api/configuration");
    expect(data.infoBanner.enabled).toBe(true);
    expect(key).toBeNull();
    expect(timeouts).toEqual([60_000]);
  });

  it("sends JSON with one Idempotency-Key reused by every retry of the call", async () => {
    const seen: { key: string | null; body: unknown }[] = [];
    server.use(
      http.post(`${BASE}/api/affiliate-codes`, async ({ request }) => {
        seen.push({ key: request.headers.get("idempotency-key"), body: await request.json() });
        if (seen.length < 3) return HttpResponse.json({ error: "kaputt" }, { status: 503 });
        return HttpResponse.json({ code: "ABC" }, { status: 201 });
      }),
    );
    const api = client();
    const result = await api<{ code: string }>("/api/affiliate-codes", {
      json: { name: "Partner" },
    });
    expect(result).toEqual({ code: "ABC" });
    expect(seen.map((s) => s.key)).toEqual(["key-1", "key-1", "key-1"]);
    expect(seen[0].body).toEqual({ name: "Partner" });
    expect(sleeps).toEqual([API_RETRY_DELAY_MS, API_RETRY_DELAY_MS]);

    // A new logical call gets a new key.
    await api("/api/affiliate-codes", { json: { name: "Zweiter" } });
    expect(seen.at(-1)?.key).toBe("key-2");
  });

  it("retries 5xx at most 3 times, then shows the server's text", async () => {
    let calls = 0;
    server.use(
      http.patch(`${BASE}/api/requests/1`, () => {
        calls++;
        return HttpResponse.json({ error: "Datenbank beschäftigt" }, { status: 500 });
      }),
    );
    const error = await failure(client()("/api/requests/1", { method: "PATCH", json: {} }));
    expect(calls).toBe(4);
    expect(sleeps).toEqual([1000, 1000, 1000]);
    expect(error.status).toBe(500);
    expect(error.message).toBe("Datenbank beschäftigt");
    expect(error.fromServer).toBe(true);
  });

  it("falls back to 'Server-Fehler: {status}' without a server text", async () => {
    server.use(http.get(`${BASE}/api/stats`, () => new HttpResponse("", { status: 502 })));
    const error = await failure(client()("/api/stats"));
    expect(error.message).toBe("Server-Fehler: 502");
    expect(error.fromServer).toBe(false);
  });

  it("never retries a 4xx and prefers {error}, then {message}", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/admin/invite`, () => {
        calls++;
        return HttpResponse.json({ message: "E-Mail bereits eingeladen" }, { status: 409 });
      }),
      http.delete(`${BASE}/api/affiliate-codes/9`, () => {
        calls++;
        return HttpResponse.json({ error: "Nicht gefunden", message: "x" }, { status: 404 });
      }),
    );
    const conflict = await failure(client()("/api/admin/invite", { json: { email: "a@b.de" } }));
    expect(conflict.status).toBe(409);
    expect(conflict.message).toBe("E-Mail bereits eingeladen");
    expect(conflict.body).toEqual({ message: "E-Mail bereits eingeladen" });
    const missing = await failure(client()("/api/affiliate-codes/9", { method: "DELETE" }));
    expect(missing.message).toBe("Nicht gefunden");
    expect(calls).toBe(2);
    expect(sleeps).toEqual([]);
  });

  it("retries network errors and then reports them in German", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/admin/users`, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const error = await failure(client()("/api/admin/users"));
    expect(calls).toBe(4);
    expect(error.reason).toBe("network");
    expect(error.message).toBe("Netzwerk-Fehler: Server nicht erreichbar oder Timeout");
  });

  it("recovers when a retry succeeds after a network error", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/admin/stats`, () =>
        ++calls === 1 ? HttpResponse.error() : HttpResponse.json({ total: 3 }),
      ),
    );
    expect(await client()("/api/admin/stats")).toEqual({ total: 3 });
    expect(calls).toBe(2);
  });

  it("times out each attempt after 60 s and retries three times", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/requests`, async () => {
        calls++;
        return hang();
      }),
    );
    const error = await failure(client()("/api/requests"));
    expect(error.reason).toBe("timeout");
    expect(error.message).toBe("Netzwerk-Fehler: Server nicht erreichbar oder Timeout");
    expect(timeouts).toEqual([60_000, 60_000, 60_000, 60_000]);
    expect(calls).toBe(4);
  });

  it("moves to the login page on 401", async () => {
    server.use(
      http.get(`${BASE}/api/admin/users`, () =>
        HttpResponse.json({ error: "Nicht angemeldet" }, { status: 401 }),
      ),
    );
    const unauth = await failure(client()("/api/admin/users"));
    expect(unauth.status).toBe(401);
    expect(unauth.message).toBe("Nicht angemeldet");
    expect(navigations).toEqual(["/admin/login"]);
  });

  it("reports an unreadable JSON answer", async () => {
    server.use(
      http.post(
        `${BASE}/api/admin/auth/login`,
        () => new HttpResponse("<html>", { headers: { "content-type": "application/json" } }),
      ),
    );
    const error = await failure(client()("/api/admin/auth/login", { json: {} }));
    expect(error.reason).toBe("invalid-response");
    expect(error.message).toBe("Ungültige Antwort vom Server");
  });

  it("sends FormData as multipart and returns undefined for an empty answer", async () => {
    let type = "";
    let name: FormDataEntryValue | null = null;
    server.use(
      http.post(`${BASE}/api/requests`, async ({ request }) => {
        type = request.headers.get("content-type") ?? "";
        name = (await request.formData()).get("name");
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const fd = new FormData();
    fd.set("name", "Erika");
    expect(await client()("/api/requests", { formData: fd })).toBeUndefined();
    expect(type).toContain("multipart/form-data");
    expect(name).toBe("Erika");
  });

  it("stops without retrying when the caller aborts", async () => {
    let calls = 0;
    const controller = new AbortController();
    server.use(
      http.get(`${BASE}/api/requests`, async () => {
        calls++;
        // The caller gives up once the request is on its way.
        setTimeout(() => controller.abort(), 0);
        return delay("infinite") as Promise<never>;
      }),
    );
    const api = createApiClient({ baseUrl: BASE, sleep: async () => {} });
    const pending = api("/api/requests", { signal: controller.signal });
    await expect(pending).rejects.toThrow();
    await pending.catch((e: unknown) => expect(e).not.toBeInstanceOf(ApiError));
    expect(calls).toBe(1);
  });
});
