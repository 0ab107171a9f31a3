// Attack review (issue 26): "booking invitation mails at most one per address per hour". A bot
// that books once and then moves the booking again and again mails the typed address at once
// each time (the reschedule's calendar invitation bypasses the budget).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { manageToken } from "~/server/appointments/manage-link.server";
import { db } from "~/server/platform/db.server";
import { appointments, mailOutbox, requests } from "~db/schema";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ BOOKING_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
});
afterAll(() => server.close());

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

function nextWeekday(after: string): string {
  let day = after;
  do {
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
  } while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay()));
  return day;
}

describe("the booking-invitation budget", () => {
  it("a flood of reschedules sends the typed address one invitation an hour, not one each", async () => {
    const email = "stranger@example.com";
    const r = db()
      .insert(requests)
      .values({
        name: "Bot",
        email,
        phone: "+49 30 123456",
        companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
        description: "App",
      })
      .returning()
      .get();
    let day = nextWeekday(firstBookableDay(1));
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id, startTime: (await slotsOf(day))[0], timeZone: "Europe/Berlin" },
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    for (let i = 0; i < 4; i++) {
      const row = db().select().from(appointments).where(eq(appointments.requestId, r.id)).get();
      if (!row) throw new Error("no appointment");
      day = nextWeekday(day);
      const moved = await server.fetch(`/termin/verwalten?token=${manageToken(row)}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({
          intent: "reschedule",
          startTime: (await slotsOf(day))[0] as string,
        }).toString(),
      });
      expect(moved.status).toBe(302);
    }
    const soon = Date.now() + 60_000;
    const dueNow = db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, email))
      .all()
      .filter((m) => m.kind !== "booking-reminder" && m.nextAttemptAt.getTime() <= soon);
    expect(dueNow.map((m) => m.kind)).toHaveLength(1);
  });
});
