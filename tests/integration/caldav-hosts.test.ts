// Who takes a demo (ADR 338) with two admins, each with their own Radicale calendar: a slot is
// free when one of them is, the booking goes to that admin (added as an assignee, the event in
// their calendar), overlap and the daily maximum hold per admin under parallel bookings, and the
// team rule (one shared calendar) blocks the slot for everyone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlinTime } from "~/lib/booking-calendar";
import { eventIcs } from "../caldav-fixtures";
import { type Radicale, startRadicale } from "../radicale";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { nextBookableWeekday, weekdayAfter } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let radicale: Radicale;
let server: TestServer;
let adminToken: string;
let benToken: string;
let benId: number;

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}
const newRequest = (email: string) =>
  Number(
    sql<{ id: number }>(
      "INSERT INTO requests (name, email, phone, company_description, description) VALUES ('Kim', ?, '+49 30 1', 'Firma', 'App') RETURNING id",
      email,
    )[0]?.id,
  );
const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}
const book = (requestId: number, start: Date) =>
  server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    token: adminToken,
    json: { requestId, startTime: start.toISOString(), timeZone: "Europe/Berlin" },
  });

async function connect(token: string, user: string, password: string) {
  const res = await server.fetch("/api/admin/account/calendar", {
    method: "PUT",
    token,
    json: { serverUrl: radicale.url, username: user, password },
  });
  expect(res.status).toBe(200);
  const chosen = await server.fetch("/api/admin/account/calendar", {
    method: "PATCH",
    token,
    json: {
      busyCalendars: [radicale.calendarUrl(user, "arbeit")],
      writeCalendar: radicale.calendarUrl(user, "demos"),
      takesDemos: true,
    },
  });
  expect(chosen.status).toBe(200);
}

const config = (json: unknown) =>
  server.fetch("/api/configuration", { method: "PATCH", token: adminToken, json });

beforeAll(async () => {
  radicale = await startRadicale({ lea: "lea-app-pw", ben: "ben-app-pw" });
  for (const user of ["lea", "ben"]) {
    await radicale.makeCalendar(user, "arbeit");
    await radicale.makeCalendar(user, "demos");
  }
  server = await startTestServer({ WEBHOOK_ALLOW_LOCAL: "true" });
  adminToken = await server.adminToken();
  const ben = await insertAdmin("ben");
  benId = ben.id;
  benToken = await apiLogin(server, ben.username, ben.password);
  await connect(adminToken, "lea", "lea-app-pw");
  await connect(benToken, "ben", "ben-app-pw");
  expect((await config({ teamCalendar: { demoHosts: "admins" } })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await radicale?.close();
});

describe("the admins who take demos", () => {
  it("a slot busy for Lea only goes to Ben: his calendar, his assignment", async () => {
    const day = nextBookableWeekday();
    const slot = berlinTime(day, 10, 0);
    await radicale.putObject(
      "lea",
      "arbeit",
      "termin.ics",
      eventIcs({
        uid: "lea-termin",
        start: utc(slot),
        end: utc(new Date(slot.getTime() + 3600_000)),
      }),
    );
    expect(await slotsOf(day)).toContain(slot.toISOString());
    const requestId = newRequest("an-ben@example.com");
    const res = await book(requestId, slot);
    expect(res.status).toBe(201);
    const appointment = (await res.json()).appointment;
    expect(appointment.calendar.host).toEqual({ id: benId, username: "ben" });
    const assignees = sql<{ admin_id: number }>(
      "SELECT admin_id FROM request_assignees WHERE request_id = ?",
      requestId,
    ).map((r) => r.admin_id);
    expect(assignees).toEqual([benId]);
    await server.testHooks.drainCalendarEvents();
    expect(await radicale.objects("ben", "demos")).toHaveLength(1);
    expect(await radicale.objects("lea", "demos")).toHaveLength(0);
    // Now both are taken at 10:00 (Lea's meeting, Ben's demo).
    expect(await slotsOf(day)).not.toContain(slot.toISOString());
  });

  it("parallel bookings of one slot: one per admin, the third is refused", async () => {
    const day = weekdayAfter(nextBookableWeekday(), 1);
    const slot = berlinTime(day, 11, 0);
    const answers = await Promise.all(
      [1, 2, 3, 4].map((i) => book(newRequest(`parallel${i}@example.com`), slot)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409]);
    const hosts = sql<{ host_admin_id: number }>(
      "SELECT host_admin_id FROM appointments WHERE start_time = ? AND status <> 'CANCELLED'",
      slot.getTime(),
    )
      .map((r) => r.host_admin_id)
      .sort();
    expect(hosts).toEqual([1, benId].sort());
    expect(await slotsOf(day)).not.toContain(slot.toISOString());
  });

  it("the daily maximum holds per admin, also under parallel bookings", async () => {
    const day = weekdayAfter(nextBookableWeekday(), 2);
    expect((await config({ scheduling: { maxPerDay: 1 } })).status).toBe(200);
    try {
      const answers = await Promise.all(
        [9, 12, 14, 16].map((hour, i) =>
          book(newRequest(`max${i}@example.com`), berlinTime(day, hour, 0)),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
      expect(await slotsOf(day)).toEqual([]);
    } finally {
      await config({ scheduling: { maxPerDay: 0 } });
    }
  });

  it("the team rule: one busy calendar blocks the slot for everyone", async () => {
    const day = weekdayAfter(nextBookableWeekday(), 3);
    const slot = berlinTime(day, 15, 0);
    await radicale.putObject(
      "lea",
      "arbeit",
      "team.ics",
      eventIcs({
        uid: "team-termin",
        start: utc(slot),
        end: utc(new Date(slot.getTime() + 1800_000)),
      }),
    );
    expect(await slotsOf(day)).toContain(slot.toISOString());
    expect((await config({ teamCalendar: { demoHosts: "team" } })).status).toBe(200);
    try {
      expect(await slotsOf(day)).not.toContain(slot.toISOString());
      const other = berlinTime(day, 16, 0);
      const res = await book(newRequest("team@example.com"), other);
      expect(res.status).toBe(201);
      expect((await res.json()).appointment.calendar.host).toBeNull();
      await server.testHooks.drainCalendarEvents();
      // The team's booking is in every admin's demo calendar.
      const at = (objects: { text: string }[]) =>
        objects.filter((o) => o.text.includes(utc(other))).length;
      expect(at(await radicale.objects("lea", "demos"))).toBe(1);
      expect(at(await radicale.objects("ben", "demos"))).toBe(1);
    } finally {
      await config({ teamCalendar: { demoHosts: "admins" } });
    }
  });
});
