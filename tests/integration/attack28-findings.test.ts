// Attack review of issue 28 (the built-in scheduler): each test is a confirmed defect and FAILS
// on the reviewed main (fb94776). They are meant to pass once the defect is fixed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AvailabilityRules, DEFAULT_WEEKLY_HOURS, freeSlots } from "~/lib/availability";
import { addDays, berlinTime, firstBookableDay, weekday } from "~/lib/booking-calendar";
import { OptionalVideoUrlSchema } from "~/lib/team-calendar";
import { busySpansOf } from "~/server/calendar-worker/expand";
import { db as appDb } from "~/server/platform/db.server";
import { appointments, requests } from "~db/schema";
import { testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

const CRLF = "\r\n";
const calendar = (...events: string[][]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Attack//DE",
    ...events.flat(),
    "END:VCALENDAR",
  ].join(CRLF);
const vevent = (uid: string, start: string, end: string, rrule?: string) => [
  "BEGIN:VEVENT",
  `UID:${uid}`,
  "DTSTAMP:20260101T000000Z",
  `DTSTART:${start}`,
  `DTEND:${end}`,
  ...(rrule ? [`RRULE:${rrule}`] : []),
  "END:VEVENT",
];
const compact = (day: string) => day.replaceAll("-", "");

/** The first Monday–Friday on or after `day` (holidays are the caller's concern). */
function weekdayFrom(day: string): string {
  let d = day;
  while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, 1);
  return d;
}

let feedText = "";
let feedServer: Server;
let feedBase = "";
let server: TestServer;
let token: string;

beforeAll(async () => {
  feedServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/calendar" }).end(feedText);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  server = await startTestServer({ BOOKING_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  feedServer.closeAllConnections();
  await new Promise<void>((resolve) => feedServer.close(() => resolve()));
});

const patchConfig = (json: unknown) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json });

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  expect(res.status).toBe(200);
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

function runSql(query: string) {
  const db = testDb();
  try {
    db.prepare(query).run();
  } finally {
    db.close();
  }
}

describe("attack28: team calendar (ICS busy feeds)", () => {
  it("F1 a feed with long-running daily series still blocks its later recurring events (shared occurrence budget)", () => {
    // A normal team calendar: four daily series since 2015 (stand-up, focus time, …) and a daily
    // lunch break. Each series' past occurrences count against ONE budget of 20,000 for the whole
    // feed, so the fifth series is cut off years before today — silently, the feed reports "ok".
    const daily = (uid: string, hour: string) =>
      vevent(uid, `20150101T${hour}0000Z`, `20150101T${hour}1500Z`, "FREQ=DAILY");
    const text = calendar(
      daily("standup", "07"),
      daily("focus", "08"),
      daily("mails", "14"),
      daily("wrapup", "15"),
      vevent("lunch", "20150101T110000Z", "20150101T120000Z", "FREQ=DAILY"),
    );
    const from = new Date("2026-12-01T00:00:00Z");
    const to = new Date("2026-12-08T00:00:00Z");
    const lunchOnDec2 = (ics: string) =>
      busySpansOf(ics, from, to).some(
        (s) =>
          s.start <= Date.parse("2026-12-02T11:00:00Z") &&
          s.end >= Date.parse("2026-12-02T12:00:00Z"),
      );
    // Control: the lunch series alone is expanded fine.
    expect(
      lunchOnDec2(calendar(vevent("lunch", "20150101T110000Z", "20150101T120000Z", "FREQ=DAILY"))),
    ).toBe(true);
    expect(lunchOnDec2(text)).toBe(true);
  });

  it("F2 busy times are honoured up to the configured horizon (730 days), not only 400 days ahead", async () => {
    // horizonDays may be up to 730 (0 = unlimited, the default), but fetchBusy keeps only busy
    // spans up to now + 400 days: a known meeting 450 days ahead does not block the slot.
    const day = weekdayFrom(addDays(firstBookableDay(1), 450));
    const ten = berlinTime(day, 10).toISOString();
    feedText = calendar(
      vevent("far", `${compact(day)}T090000Z`, `${compact(day)}T110000Z`), // 10:00–12:00 Berlin (winter)
    );
    expect(
      (
        await patchConfig({
          scheduling: { horizonDays: 730 },
          teamCalendar: { busyFeeds: [{ id: "far", url: `${feedBase}/feed` }] },
        })
      ).status,
    ).toBe(200);
    runSql("UPDATE busy_feed_cache SET next_fetch_at = 0");
    await server.testHooks.drainBusyFeeds();
    const db = testDb();
    const row = db.prepare("SELECT fetched_at, last_error FROM busy_feed_cache").get() as {
      fetched_at: number | null;
      last_error: string | null;
    };
    db.close();
    expect(row).toMatchObject({ last_error: null }); // fetched fine: the span was dropped, not missed
    expect(row.fetched_at).not.toBeNull();
    const slots = await slotsOf(day);
    expect(slots.length).toBeGreaterThan(0); // the day itself is bookable (within the horizon)
    expect(slots).not.toContain(ten);
    await patchConfig({ scheduling: { horizonDays: 0 }, teamCalendar: { busyFeeds: [] } });
  });
});

describe("attack28: availability rules", () => {
  const rules = (sun: { from: string; to: string }[]): AvailabilityRules => ({
    weeklyHours: { ...DEFAULT_WEEKLY_HOURS, sun },
    slotStepMinutes: 0,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    maxPerDay: 0,
    horizonDays: 0,
  });

  it("F3 on the spring DST change no slot lies after the configured end of the hours", () => {
    // Sunday 28.03.2027: 02:00 CET jumps to 03:00 CEST. Hours 01:00–03:00 (wall clock) end at
    // 03:00 CEST; the grid maps 02:00/02:30 to 03:00/03:30 CEST — slots after closing time.
    const day = "2027-03-28";
    const slots = freeSlots({
      day,
      rules: rules([{ from: "01:00", to: "03:00" }]),
      durationMinutes: 30,
      leadTime: { days: 0, hours: 0 },
      now: new Date("2027-03-01T00:00:00Z"),
      closedDays: new Set(),
      bookings: [],
      busy: [],
    });
    const closing = berlinTime(day, 3).getTime(); // 03:00 CEST = 01:00Z
    for (const s of slots) expect(s.getTime() + 30 * 60_000).toBeLessThanOrEqual(closing);
  });

  it("F4 a long blocked range (accepted by the settings) blocks all of its days", async () => {
    // BlockedRangeSchema accepts any length, closedDays() expands only the first 1,100 days of a
    // range: "closed from 01.01.2023 until further notice (31.12.2099)" leaves today bookable.
    const res = await patchConfig({
      scheduling: {
        blockedDays: [{ from: "2023-01-01", to: "2099-12-31", note: "Geschlossen" }],
      },
    });
    expect(res.status).toBe(200);
    const day = weekdayFrom(addDays(firstBookableDay(1), 14));
    const slots = await slotsOf(day);
    await patchConfig({ scheduling: { blockedDays: [] } });
    expect(slots).toEqual([]);
  });
});

describe("attack28: video link", () => {
  it("F5 a video link with CR/LF, tab or blanks is refused or stored normalised (not raw)", () => {
    for (const raw of [
      "https://meet.example.com/raum\r\nATTENDEE:mailto:x@example.com",
      "https://meet.example.com/raum\tzwei",
      'https://meet.example.com/raum "zitat"',
    ]) {
      const parsed = OptionalVideoUrlSchema.safeParse(raw);
      if (parsed.success) expect(parsed.data).not.toMatch(/[\r\n\t "]/);
    }
  });
});

describe("attack28: admin move wording", () => {
  it("F6 an admin moving a booking into a taken slot is answered in the Sie form (not the visitor's du)", async () => {
    const day = weekdayFrom(addDays(firstBookableDay(1), 21));
    const booked = async (hour: number) => {
      const request = appDb()
        .insert(requests)
        .values({
          name: `Kim Verschieben ${hour}`,
          email: `verschieben${hour}@example.com`,
          phone: "+49 30 123456",
          companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
          description: "App",
        })
        .returning()
        .get();
      const res = await server.fetch("/api/calcom/book-appointment", {
        method: "POST",
        token,
        json: {
          requestId: request.id,
          startTime: berlinTime(day, hour).toISOString(),
          timeZone: "Europe/Berlin",
        },
      });
      expect(res.status).toBe(201);
      return appDb().select().from(appointments).where(eq(appointments.requestId, request.id)).get()
        ?.id as number;
    };
    const first = await booked(9);
    await booked(11);
    const res = await server.fetch(`/api/admin/appointments/${first}/reschedule`, {
      method: "POST",
      token,
      json: { startTime: berlinTime(day, 11).toISOString() },
    });
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: string };
    // Today: "Dieser Termin wurde gerade vergeben. Bitte wähle eine andere Uhrzeit – …"
    expect(error).not.toMatch(/\bwähle\b|\bdu\b|\bdein/);
  });
});
