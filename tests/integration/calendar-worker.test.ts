// Untrusted calendar data off the main thread (ADR 320): a team-calendar feed is parsed and
// expanded by the calendar worker (a child process with a heap cap, a hard time limit, an event
// cap and an iteration budget; known impossible rules refused). The hostile feed of the security
// review — 8 events whose RRULEs never match, 1.2 KB — froze the whole server for ~15 s per fetch.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlinTime } from "~/lib/booking-calendar";
import { testDb } from "./auth-helpers";
import { nextBookableWeekday, slotsOf } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let feedText = "";
let feedServer: Server;
let feedUrl: string;
let server: TestServer;
let token: string;

const NEVER = [
  "FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=2;BYDAY=MO",
  "FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=4;BYDAY=TU",
  "FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=6;BYDAY=WE",
  "FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=9;BYDAY=TH",
  "FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=11;BYDAY=FR",
  "FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=2;BYDAY=SA",
  "FREQ=YEARLY;BYMONTHDAY=-30;BYMONTH=2;BYDAY=SU",
  "FREQ=DAILY;BYMONTHDAY=30;BYMONTH=2",
];

const event = (uid: string, start: string, end: string, rule?: string) =>
  [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${start}`,
    `DTEND:${end}`,
    ...(rule ? [`RRULE:${rule}`] : []),
    "END:VEVENT",
  ].join("\r\n");
const calendar = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//DE", ...events, "END:VCALENDAR"].join("\r\n");

/** The review's feed: 8 events with never-matching RRULEs. */
const neverEvents = NEVER.map((rule, i) =>
  event(`never-${i}@x`, "20260105T090000Z", "20260105T100000Z", rule),
);

const compact = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

function cacheRow(id: string) {
  const db = testDb();
  try {
    return db
      .prepare("SELECT busy, last_error FROM busy_feed_cache WHERE feed_id LIKE ?")
      .get(`${id}:%`) as { busy: string; last_error: string | null } | undefined;
  } finally {
    db.close();
  }
}
function dueNow() {
  const db = testDb();
  try {
    db.prepare("UPDATE busy_feed_cache SET next_fetch_at = 0").run();
  } finally {
    db.close();
  }
}

/**
 * Fetches the feeds now and probes /healthz until the fetch is done: each probe's wall-clock
 * time, the CPU time this thread spent meanwhile (the server runs in it, beside this client) and
 * whether the calendar worker was running before and after it.
 */
async function probeWhileFetching() {
  dueNow();
  let done = false;
  const fetching = server.testHooks.drainBusyFeeds().finally(() => {
    done = true;
  });
  const probes: { ms: number; cpuMs: number; workerRan: boolean }[] = [];
  while (!done) {
    const before = server.testHooks.calendarWorker().running;
    const cpu = process.threadCpuUsage();
    const started = performance.now();
    const res = await server.fetch("/healthz");
    await res.text();
    const ms = performance.now() - started;
    const spent = process.threadCpuUsage(cpu);
    expect(res.status).toBe(200);
    const after = server.testHooks.calendarWorker().running;
    probes.push({ ms, cpuMs: (spent.user + spent.system) / 1000, workerRan: before && after });
  }
  await fetching;
  return probes;
}

beforeAll(async () => {
  feedServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/calendar" }).end(feedText);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/team.ics`;
  server = await startTestServer({ BOOKING_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  feedServer.closeAllConnections();
  await new Promise((resolve) => feedServer.close(resolve));
});

describe("the calendar worker", () => {
  const day = nextBookableWeekday();
  const ten = berlinTime(day, 10);
  const meeting = event(
    "meeting@x",
    compact(ten.toISOString()),
    compact(new Date(ten.getTime() + 3600_000).toISOString()),
  );

  it("the review's hostile feed: /healthz stays under 100 ms while the worker runs, the feed's real event still blocks", async () => {
    // The 8 never-matching rules, a series far too long to expand (the iteration budget ends
    // it: the worker runs for a while) and one real meeting.
    feedText = calendar(
      ...neverEvents,
      event("long@x", "20260105T090000Z", "20260105T090001Z", "FREQ=SECONDLY;BYMONTH=1"),
      meeting,
    );
    expect(calendar(...neverEvents).length).toBeLessThan(1500);
    expect(await slotsOf(server, day)).toContain(ten.toISOString());
    const res = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { teamCalendar: { busyFeeds: [{ id: "team", url: feedUrl }] } },
    });
    expect(res.status).toBe(200);

    const probes = await probeWhileFetching();
    // Measured while the worker ran, not only before or after it.
    expect(probes.filter((p) => p.workerRan).length).toBeGreaterThanOrEqual(5);
    // The server's thread never worked 100 ms on end (the old code: ~15 s per fetch). The wall
    // clock also counts the time the machine gave other processes (a loaded test machine): its
    // 95th percentile stays under 100 ms as well.
    expect(Math.max(...probes.map((p) => p.cpuMs))).toBeLessThan(100);
    const walls = probes.map((p) => p.ms).sort((a, b) => a - b);
    expect(walls[Math.floor(walls.length * 0.95)]).toBeLessThan(100);

    const row = cacheRow("team");
    // The long series is reported; the impossible ones have no occurrence to miss.
    expect(row?.last_error).toMatch(/^Unvollständig: 1 Serientermin hat/);
    expect(await slotsOf(server, day)).not.toContain(ten.toISOString());
  }, 60_000);

  it("a feed with more than 10,000 events is refused; the last known busy times stay", async () => {
    const many = Array.from({ length: 10_001 }, (_, i) =>
      ["BEGIN:VEVENT", `UID:${i}`, "DTSTART:20200101T000000Z", "END:VEVENT"].join("\r\n"),
    );
    feedText = calendar(...many);
    expect(feedText.length).toBeLessThan(2 * 1024 * 1024);
    dueNow();
    await server.testHooks.drainBusyFeeds();
    expect(cacheRow("team")?.last_error).toBe("Zu viele Termine im Kalender (mehr als 10.000)");
    // The meeting of the last good fetch still blocks.
    expect(await slotsOf(server, day)).not.toContain(ten.toISOString());
  }, 60_000);

  it("the worker is part of the production build, with ical.js inside", () => {
    const file = "build/server/calendar-worker.js";
    expect(existsSync(file)).toBe(true);
    const code = readFileSync(file, "utf8");
    expect(code).not.toMatch(/from\s*["']ical\.js["']/);
    // The server's own bundle no longer carries the calendar parser.
    expect(readFileSync("build/server/index.js", "utf8")).not.toMatch(/["']ical\.js["']/);
  });
});
