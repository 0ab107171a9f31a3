import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, firstBookableDay, isWeekend } from "~/lib/booking-calendar";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { appointments, requests } from "~db/schema";
import { weekdayFrom } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(() => server.close());

/** A bookable weekday some days ahead that is no holiday (a Wednesday in the coming weeks). */
function nextWednesday(offset = 0): string {
  let day = addDays(firstBookableDay(1), 7 * offset);
  while (new Date(`${day}T12:00:00Z`).getUTCDay() !== 3) day = addDays(day, 1);
  return isWeekend(day) ? addDays(day, 2) : day;
}

const patch = (json: unknown) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json });

async function slotsOf(day: string): Promise<{ time: string; formatted: string }[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  return (await res.json()).slots;
}

let seq = 0;
function seedRequest() {
  seq += 1;
  return db()
    .insert(requests)
    .values({
      name: `Kim ${seq}`,
      email: `kunde${seq}@example.com`,
      phone: "+49 30 123456",
      companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
      description: "App",
    })
    .returning()
    .get();
}

const book = (requestId: number, startTime: string) =>
  server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    token,
    json: { requestId, startTime, timeZone: "Europe/Berlin" },
  });

describe("scheduling settings (PATCH /api/configuration { scheduling })", () => {
  it("the slots API honours configured hours with a lunch break; the patch marks the hours reviewed", async () => {
    const day = nextWednesday();
    expect(getConfiguration().scheduling.hoursReviewed).toBe(false);
    const res = await patch({
      scheduling: {
        weeklyHours: {
          wed: [
            { from: "09:00", to: "12:00" },
            { from: "13:00", to: "15:00" },
          ],
        },
      },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.configuration.scheduling.weeklyHours.mon).toEqual([{ from: "09:00", to: "17:00" }]);
    expect(body.configuration.scheduling.hoursReviewed).toBe(true);
    const times = (await slotsOf(day)).map((s) => s.formatted);
    expect(times).toHaveLength(10);
    expect(times).not.toContain("12:00");
    expect(times).toContain("13:00");
    expect(times.at(-1)).toBe("14:30");
  });

  it("refuses broken hours with 400 and keeps the stored ones", async () => {
    const res = await patch({
      scheduling: { weeklyHours: { wed: [{ from: "15:00", to: "09:00" }] } },
    });
    expect(res.status).toBe(400);
    expect(getConfiguration().scheduling.weeklyHours.wed).toHaveLength(2);
  });

  it("blocked days and holidays remove every slot, and booking them is refused", async () => {
    const day = nextWednesday(1);
    expect(
      (await patch({ scheduling: { blockedDays: [{ from: day, to: day, note: "Messe" }] } }))
        .status,
    ).toBe(200);
    expect(await slotsOf(day)).toEqual([]);
    const r = seedRequest();
    const refused = await book(r.id, `${day}T08:00:00.000Z`);
    expect(refused.status).toBe(400);
    // 3 October: a nationwide holiday (whatever year comes next).
    const year = Number(firstBookableDay(1).slice(0, 4)) + 1;
    expect(await slotsOf(`${year}-10-03`)).toEqual([]);
    await patch({ scheduling: { blockedDays: [] } });
    expect((await slotsOf(day)).length).toBeGreaterThan(0);
  });

  it("a long blocked range (accepted by the settings) blocks every one of its days", async () => {
    // "Closed from 01.01.2023 until further notice (31.12.2099)" must not leave today bookable.
    const res = await patch({
      scheduling: {
        blockedDays: [{ from: "2023-01-01", to: "2099-12-31", note: "Geschlossen" }],
      },
    });
    expect(res.status).toBe(200);
    const day = weekdayFrom(addDays(firstBookableDay(1), 14));
    const slots = await slotsOf(day);
    await patch({ scheduling: { blockedDays: [] } });
    expect(slots).toEqual([]);
  });

  it("parallel bookings: buffers and the daily maximum hold (one immediate transaction)", async () => {
    const day = nextWednesday(2);
    await patch({ scheduling: { bufferAfterMinutes: 30, bufferBeforeMinutes: 0, maxPerDay: 0 } });
    const slots = await slotsOf(day);
    // 09:00 and 09:30 are adjacent: with a 30-minute after-buffer only one of them can be taken.
    const pair = await Promise.all([
      book(seedRequest().id, slots[0].time),
      book(seedRequest().id, slots[1].time),
    ]);
    expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);

    const other = nextWednesday(3);
    await patch({ scheduling: { bufferAfterMinutes: 0, maxPerDay: 2 } });
    const free = await slotsOf(other);
    const six = await Promise.all(free.slice(0, 6).map((s) => book(seedRequest().id, s.time)));
    expect(six.filter((r) => r.status === 201)).toHaveLength(2);
    expect(six.filter((r) => r.status === 409)).toHaveLength(4);
    expect(await slotsOf(other)).toEqual([]);
    const active = db()
      .select()
      .from(appointments)
      .all()
      .filter((a) => a.status !== "CANCELLED" && a.startTime.toISOString().startsWith(other));
    expect(active).toHaveLength(2);
  });
});
