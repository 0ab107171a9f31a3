// ADR 254: one client identity for every limit. An IPv6 client counts by its /56 (as the request
// slots do, ADR 197/254), so twelve addresses of one /64 share one counter for submissions,
// bookings, logins and password-reset requests. TRUST_PROXY=fly lets the test speak from any address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

const LIMITS = {
  SUBMISSION_RATE_LIMIT: "10/1h",
  BOOKING_RATE_LIMIT: "5/1h",
  LOGIN_RATE_LIMIT: "5/15m",
  TRUST_PROXY: "fly",
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(LIMITS);
});
afterAll(async () => {
  await server.close();
  for (const key of Object.keys(LIMITS)) delete process.env[key];
});

const from = (ip: string) => ({ "fly-client-ip": ip });
/** Twelve addresses of one /64 (as one IPv6 subscriber has 2^64 of them). */
const of64 = (prefix: string) => Array.from({ length: 12 }, (_, i) => `${prefix}::${i + 1}`);

const submit = (ip: string) =>
  server.fetch("/api/requests", {
    method: "POST",
    headers: from(ip),
    body: multipart(validFields()),
  });

const statuses = async (answers: Promise<Response>[]) => {
  const list: number[] = [];
  // One after the other: the order of the answers is the order of the attempts.
  for (const answer of answers) list.push((await answer).status);
  return list;
};

async function freeSlots(count: number): Promise<string[]> {
  const slots: string[] = [];
  let day = firstBookableDay(1);
  for (let i = 0; i < 30 && slots.length < count; i++) {
    const res = await server.fetch("/api/calcom/available-slots", {
      method: "POST",
      json: { startDate: day, day },
    });
    slots.push(...((await res.json()).slots as { time: string }[]).map((s) => s.time));
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
  }
  if (slots.length < count) throw new Error("not enough bookable slots");
  return slots.slice(0, count);
}

describe("one client identity (IPv6 by its /56) for every limit", () => {
  it("submissions: twelve addresses of one /64 share the limit; another /56 has its own", async () => {
    const answers: number[] = [];
    for (const ip of of64("2001:db8:a1:1")) answers.push((await submit(ip)).status);
    expect(answers).toEqual([...Array(10).fill(201), 429, 429]);
    // Another /64 of the same /56 is the same client; the next /56 is another one.
    expect((await submit("2001:db8:a1:ff::1")).status).toBe(429);
    expect((await submit("2001:db8:a1:100::1")).status).toBe(201);
    // An IPv4 client keeps its own counter.
    expect((await submit("198.51.100.20")).status).toBe(201);
  });

  it("bookings: twelve addresses of one /64 share the booking limit", async () => {
    const slots = await freeSlots(12);
    // Twelve requests, each submitted from its own /56 (the submission limit is not the point here).
    const visitors: { id: number; cookie: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await submit(`2001:db8:b${(i + 1).toString(16)}::1`);
      expect(res.status).toBe(201);
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
      visitors.push({ id: ((await res.json()) as { id: number }).id, cookie });
    }
    const addresses = of64("2001:db8:c1:7");
    const answers = await statuses(
      visitors.map((visitor, i) =>
        server.fetch("/api/calcom/book-appointment", {
          method: "POST",
          headers: { ...from(addresses[i] as string), cookie: visitor.cookie },
          json: { requestId: visitor.id, startTime: slots[i], timeZone: "Europe/Berlin" },
        }),
      ),
    );
    expect(answers).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
  });

  it("logins and password-reset requests: twelve addresses of one /64 share the limit", async () => {
    const logins = await statuses(
      of64("2001:db8:d1:3").map((ip, i) =>
        server.fetch("/api/admin/auth/login", {
          method: "POST",
          headers: from(ip),
          json: { username: `niemand-${i}`, password: "falsch" },
        }),
      ),
    );
    expect(logins).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);

    const resets = await statuses(
      of64("2001:db8:e1:4").map((ip, i) =>
        server.fetch("/api/admin/auth/forgot-password", {
          method: "POST",
          headers: from(ip),
          json: { email: `niemand-${i}@example.com` },
        }),
      ),
    );
    expect(resets).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
  });
});
