// BOOKING_RATE_LIMIT: demo bookings per client address, counted before the booking and given back
// when nothing was booked. (The e2e stack raises it, since every spec books from one address.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ BOOKING_RATE_LIMIT: "2/1h", SUBMISSION_RATE_LIMIT: "100/1h" });
});
afterAll(async () => {
  await server.close();
  delete process.env.BOOKING_RATE_LIMIT;
});

async function visitorRequest() {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields()),
  });
  expect(res.status).toBe(201);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  return { id: ((await res.json()) as { id: number }).id, cookie };
}

async function freeSlots(): Promise<string[]> {
  let day = firstBookableDay(1);
  for (let i = 0; i < 14; i++) {
    const res = await server.fetch("/api/calcom/available-slots", {
      method: "POST",
      json: { startDate: day, day },
    });
    const slots = ((await res.json()).slots as { time: string }[]).map((s) => s.time);
    if (slots.length >= 4) return slots;
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
  }
  throw new Error("no bookable day");
}

const book = (who: { id: number; cookie: string }, startTime: string) =>
  server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    headers: { cookie: who.cookie },
    json: { requestId: who.id, startTime, timeZone: "Europe/Berlin" },
  });

describe("booking rate limit", () => {
  it("lets the limit through, refuses the next booking with 429, and does not count refusals", async () => {
    const slots = await freeSlots();
    const first = await visitorRequest();
    expect((await book(first, slots[0] as string)).status).toBe(201);
    // Already booked: refused without using up the address's second booking.
    expect((await book(first, slots[1] as string)).status).toBe(409);
    const second = await visitorRequest();
    expect((await book(second, slots[1] as string)).status).toBe(201);
    const third = await visitorRequest();
    const refused = await book(third, slots[2] as string);
    expect(refused.status).toBe(429);
    expect(JSON.stringify(await refused.json())).toContain("Zu viele Versuche");
  });
});
