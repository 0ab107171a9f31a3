import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinSlotStarts } from "~/server/appointments/scheduling/builtin.server";
import { db } from "~/server/platform/db.server";
import { appointments, requests } from "~db/schema";
import { nextBookableWeekday } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(() => server.close());

function seedRequest(email = "kunde@example.com") {
  return db()
    .insert(requests)
    .values({
      name: "Kim Kunde",
      email,
      phone: "+49 30 123456",
      companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
      description: "App",
    })
    .returning()
    .get();
}

describe("built-in scheduler", () => {
  it("builds Mon–Fri 09:00–17:00 Berlin slots at the event duration, DST-correct", () => {
    expect(builtinSlotStarts("2026-03-28", 30)).toEqual([]); // Saturday
    const monday = builtinSlotStarts("2026-03-30", 30); // first Monday of summer time
    expect(monday).toHaveLength(16);
    expect(monday[0].toISOString()).toBe("2026-03-30T07:00:00.000Z");
    expect(builtinSlotStarts("2026-10-26", 30)[0].toISOString()).toBe("2026-10-26T08:00:00.000Z");
  });

  it("answers the event type details and the slots of a day", async () => {
    const details = await (await server.fetch("/api/event-type-details")).json();
    expect(details).toMatchObject({ success: true, eventType: { duration: 30 } });
    expect(details.eventType.description).not.toContain("<script");
    const day = nextBookableWeekday();
    const res = await server.fetch("/api/calcom/available-slots", {
      method: "POST",
      json: { startDate: `${day}T00:00:00.000Z`, day, eventTypeKey: "demo" },
    });
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.slots).toHaveLength(16);
    expect(body.slots[0]).toMatchObject({ formatted: "09:00", available: true });
    const weekend = await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: "2030-01-05", day: "2030-01-05" },
      })
    ).json();
    expect(weekend.slots).toEqual([]);
  });

  it("books only for the caller's own request, and two concurrent bookings of one slot: exactly one succeeds", async () => {
    const r = seedRequest();
    const day = nextBookableWeekday();
    const slots = (
      await (
        await server.fetch("/api/calcom/available-slots", {
          method: "POST",
          json: { startDate: day, day },
        })
      ).json()
    ).slots;
    const startTime = slots[3].time;
    const stranger = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      json: { requestId: r.id, startTime },
    });
    expect(stranger.status).toBe(403);
    // Two requests (one request may hold only one active appointment, ADR 081).
    const r2 = seedRequest("zweite@example.com");
    const [a, b] = await Promise.all([
      server.fetch("/api/calcom/book-appointment", {
        method: "POST",
        token,
        json: { requestId: r.id, startTime, timeZone: "Europe/Berlin" },
      }),
      server.fetch("/api/calcom/book-appointment", {
        method: "POST",
        token,
        json: { requestId: r2.id, startTime, timeZone: "Europe/Berlin" },
      }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? await a.json() : await b.json();
    expect(loser.error).toContain("gerade vergeben");
    const after = (
      await (
        await server.fetch("/api/calcom/available-slots", {
          method: "POST",
          json: { startDate: day, day },
        })
      ).json()
    ).slots;
    expect(after.map((s: { time: string }) => s.time)).not.toContain(startTime);
    expect(
      db()
        .select()
        .from(appointments)
        .all()
        .filter((x) => x.startTime.toISOString() === startTime),
    ).toHaveLength(1);
  });

  it("refuses a time that is not an offered slot and a missing time", async () => {
    const r = seedRequest("b@example.com");
    const day = nextBookableWeekday();
    const odd = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id, startTime: `${day}T07:13:00.000Z` },
    });
    expect(odd.status).toBe(400);
    const none = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id },
    });
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe("Bitte wähle Datum und Uhrzeit aus");
  });

  it("lists, refreshes and deletes appointments for admins", async () => {
    expect((await server.fetch("/api/admin/appointments")).status).toBe(401);
    const list = await (
      await server.fetch("/api/admin/appointments?filter=upcoming&limit=10", { token })
    ).json();
    expect(list.pagination).toMatchObject({ hasPrev: false, totalPages: 1 });
    const first = list.appointments[0];
    expect(first).toMatchObject({
      eventTypeKey: "demo",
      status: "ACCEPTED",
      calcomData: { status: "ACCEPTED" },
      request: { name: "Kim Kunde" },
    });
    const refreshed = await (
      await server.fetch(`/api/admin/appointments/${first.id}/refresh`, { method: "POST", token })
    ).json();
    expect(refreshed.appointment.cacheInfo.age).toBeLessThan(1);
    expect(
      (await server.fetch(`/api/admin/appointments/${first.id}`, { method: "DELETE", token }))
        .status,
    ).toBe(200);
    expect(
      (await server.fetch(`/api/admin/appointments/${first.id}`, { method: "DELETE", token }))
        .status,
    ).toBe(404);
  });
});
