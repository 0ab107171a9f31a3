import { DEFAULT_BOOKING_DURATION, dayBoundsUtc, type IsoDay } from "~/lib/booking-calendar";
import { formatTime } from "~/lib/format";
import { env } from "../../platform/env.server";
import {
  BOOKING_FAILED,
  type BookingResult,
  CANCEL_FAILED,
  type EventType,
  SchedulingError,
  type SchedulingProvider,
  SLOT_TAKEN,
  SLOTS_FAILED,
} from "./types";

/** cal-api-version per endpoint (calcom-api.md): the server falls back to a legacy version otherwise. */
export const CAL_API_VERSIONS = {
  eventTypes: "2024-06-14",
  slots: "2024-09-04",
  bookings: "2024-08-13",
} as const;

const TIMEOUT_MS = 15_000;
const MAX_ATTEMPTS = 3;

type Envelope<T> = { status?: string; data?: T; error?: { code?: string; message?: string } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait before retrying a 429/5xx: Retry-After or X-RateLimit-Reset(-Default), else backoff. */
export function retryDelayMs(response: Response | null, attempt: number): number {
  const retryAfter = response?.headers.get("retry-after");
  if (retryAfter && /^\d+$/.test(retryAfter)) return Math.min(10_000, Number(retryAfter) * 1000);
  const reset =
    response?.headers.get("x-ratelimit-reset-default") ??
    response?.headers.get("x-ratelimit-reset");
  if (reset && /^\d+$/.test(reset)) {
    const n = Number(reset);
    // Seconds until reset, or an epoch timestamp in seconds.
    const ms = n > 1e9 ? n * 1000 - Date.now() : n * 1000;
    return Math.max(0, Math.min(10_000, ms));
  }
  return Math.min(4_000, 250 * 2 ** attempt);
}

function isConnectionRefused(error: unknown) {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code === "ECONNREFUSED";
}

/**
 * One Cal.com API v2 call: Bearer auth, cal-api-version, time-out, envelope unwrapped.
 * Reads retry on 429/5xx/network errors; the booking POST only on 429 or a refused connection
 * (after a time-out or 5xx it may have booked).
 */
async function call<T>(
  method: "GET" | "POST",
  path: string,
  version: string,
  options: { query?: Record<string, string>; body?: unknown; idempotent: boolean },
): Promise<{ status: number; data: T | undefined; message: string }> {
  const base = env().CALCOM_API_URL.replace(/\/$/, "");
  const url = new URL(`${base}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  let lastError: unknown;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let response: Response | null = null;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${env().CALCOM_API_KEY}`,
          "cal-api-version": version,
          accept: "application/json",
          ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      lastError = error;
      const retry = options.idempotent || isConnectionRefused(error);
      if (!retry || attempt === MAX_ATTEMPTS - 1) break;
      await sleep(retryDelayMs(null, attempt));
      continue;
    }
    const retryable = response.status === 429 || (options.idempotent && response.status >= 500);
    if (retryable && attempt < MAX_ATTEMPTS - 1) {
      await sleep(retryDelayMs(response, attempt));
      continue;
    }
    let json: Envelope<T> | undefined;
    try {
      json = (await response.json()) as Envelope<T>;
    } catch {
      json = undefined;
    }
    return { status: response.status, data: json?.data, message: json?.error?.message ?? "" };
  }
  throw new SchedulingError(
    method === "POST" ? BOOKING_FAILED : SLOTS_FAILED,
    "unavailable",
    lastError instanceof Error && lastError.name === "TimeoutError" ? 504 : 502,
  );
}

type CalEventType = {
  id: number;
  slug?: string;
  title?: string;
  name?: string;
  lengthInMinutes?: number;
  length?: number;
  duration?: number;
  description?: string | null;
  hidden?: boolean;
};

export function toEventType(e: CalEventType): EventType {
  return {
    key: e.slug || String(e.id),
    id: e.id,
    slug: e.slug ?? String(e.id),
    title: e.title ?? e.name ?? "Termin",
    lengthInMinutes: e.lengthInMinutes ?? e.length ?? e.duration ?? DEFAULT_BOOKING_DURATION,
    description: e.description ?? "",
    hidden: Boolean(e.hidden),
  };
}

type CalBooking = {
  uid: string;
  start: string;
  end: string;
  status?: string;
  location?: string | null;
  meetingUrl?: string | null;
};

function toBooking(b: CalBooking): BookingResult {
  return {
    uid: b.uid,
    start: new Date(b.start).toISOString(),
    end: new Date(b.end).toISOString(),
    status: (b.status ?? "accepted").toUpperCase(),
    location: b.location ?? null,
    url: b.meetingUrl ?? (b.location?.startsWith("http") ? b.location : null),
    raw: b,
  };
}

let eventTypeCache: { at: number; list: EventType[] } | undefined;

export const calcomProvider: SchedulingProvider = {
  name: "calcom",
  async listEventTypes() {
    if (eventTypeCache && Date.now() - eventTypeCache.at < 60_000) return eventTypeCache.list;
    const res = await call<CalEventType[]>("GET", "/event-types", CAL_API_VERSIONS.eventTypes, {
      idempotent: true,
    });
    if (res.status !== 200 || !Array.isArray(res.data)) {
      throw new SchedulingError(
        "Unerwartete API-Antwort. Bitte versuche es später erneut.",
        "bad_response",
        502,
      );
    }
    const list = res.data.map(toEventType);
    eventTypeCache = { at: Date.now(), list };
    return list;
  },
  async getSlots(day: IsoDay, eventType, minNoticeHours) {
    // One Berlin calendar day as its UTC bounds (DST days are 23 or 25 hours long).
    const { start, end } = dayBoundsUtc(day);
    const query: Record<string, string> = {
      start: start.toISOString(),
      end: end.toISOString(),
      timeZone: "Europe/Berlin",
    };
    if (eventType.id !== null) query.eventTypeId = String(eventType.id);
    else {
      query.eventTypeSlug = eventType.slug;
      if (env().CALCOM_USERNAME) query.username = env().CALCOM_USERNAME as string;
    }
    const res = await call<Record<string, { start: string }[]>>(
      "GET",
      "/slots",
      CAL_API_VERSIONS.slots,
      {
        query,
        idempotent: true,
      },
    );
    if (res.status !== 200) throw new SchedulingError(SLOTS_FAILED, "unavailable", 502);
    if (!res.data || typeof res.data !== "object" || Array.isArray(res.data)) {
      throw new SchedulingError(
        "Unerwartete API-Antwort. Bitte versuche es später erneut.",
        "bad_response",
        502,
      );
    }
    const earliest = Date.now() + minNoticeHours * 3600_000;
    return Object.values(res.data)
      .flat()
      .filter((s) => s && typeof s.start === "string")
      .map((s) => new Date(s.start))
      .filter((d) => !Number.isNaN(d.getTime()) && d.getTime() > earliest)
      .sort((a, b) => a.getTime() - b.getTime())
      .map((d) => ({ time: d.toISOString(), formatted: formatTime(d), available: true as const }));
  },
  async book(input) {
    const body: Record<string, unknown> = {
      start: new Date(input.start).toISOString().replace(/\.000Z$/, "Z"),
      attendee: {
        name: input.attendee.name,
        email: input.attendee.email,
        timeZone: input.attendee.timeZone,
        language: "de",
      },
      metadata: input.requestId ? { requestId: String(input.requestId) } : {},
    };
    if (input.eventType.id !== null) body.eventTypeId = input.eventType.id;
    else {
      body.eventTypeSlug = input.eventType.slug;
      if (env().CALCOM_USERNAME) body.username = env().CALCOM_USERNAME;
    }
    const res = await call<CalBooking | CalBooking[]>(
      "POST",
      "/bookings",
      CAL_API_VERSIONS.bookings,
      {
        body,
        idempotent: false,
      },
    );
    if (res.status === 201 || res.status === 200) {
      const booking = Array.isArray(res.data) ? res.data[0] : res.data;
      if (!booking?.uid) throw new SchedulingError(BOOKING_FAILED, "bad_response", 502);
      return toBooking(booking);
    }
    if (res.status === 409 || /already has booking|not available|no available/i.test(res.message)) {
      throw new SchedulingError(SLOT_TAKEN, "slot_taken", 409);
    }
    if (res.status === 404)
      throw new SchedulingError("Diese Terminart gibt es nicht mehr.", "not_found", 404);
    if (res.status === 400) {
      throw new SchedulingError(
        "Dieser Zeitpunkt ist nicht (mehr) buchbar. Bitte wähle eine andere Uhrzeit.",
        "invalid",
        400,
      );
    }
    throw new SchedulingError(BOOKING_FAILED, "unavailable", 502);
  },
  async getBooking(uid) {
    const res = await call<CalBooking | CalBooking[]>(
      "GET",
      `/bookings/${encodeURIComponent(uid)}`,
      CAL_API_VERSIONS.bookings,
      {
        idempotent: true,
      },
    );
    if (res.status === 404) return null;
    const booking = Array.isArray(res.data) ? res.data[0] : res.data;
    if (res.status !== 200 || !booking?.uid) {
      throw new SchedulingError(
        "Der Termin konnte nicht bei Cal.com abgerufen werden.",
        "unavailable",
        502,
      );
    }
    return toBooking(booking);
  },
  async cancel(uid) {
    const res = await call(
      "POST",
      `/bookings/${encodeURIComponent(uid)}/cancel`,
      CAL_API_VERSIONS.bookings,
      {
        body: { cancellationReason: "Vom Team abgesagt" },
        idempotent: false,
      },
    );
    if (res.status !== 200) throw new SchedulingError(CANCEL_FAILED, "unavailable", 502);
  },
};
