// The calendar worker cannot be flooded by visitors (ADR 356). Slot look-ups are limited per
// client and per network (as bookings are, ADR 322), answered 429 with a German message and
// Retry-After — on the booking page too, never a 500. The worker's queue has classes: a visitor's
// look-up waits in its own small share, never longer than its caller's deadline, and is not run
// once its caller has given up; a team-calendar feed (or a CalDAV sync, a booking's check) is
// never stuck behind a flood of look-ups from many clients.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlinTime } from "~/lib/booking-calendar";
import { closeDb } from "~/server/platform/db.server";
import { type CaldavStandIn, startCaldavStandIn } from "../caldav-stand-in";
import { testDb } from "../integration/auth-helpers";
import { nextBookableWeekday, weekdayAfter } from "../integration/booking-days";
import { multipart, validFields } from "../integration/landing-fixtures";
import { startTestServer, type TestServer } from "../integration/server";

const LIMITS = {
  SLOT_LOOKUP_RATE_LIMIT: "5/10m",
  SLOT_LOOKUP_NETWORK_RATE_LIMIT: "12/10m",
  TRUST_PROXY: "fly",
  WEBHOOK_ALLOW_LOCAL: "true",
};

let server: TestServer;
let token: string;
let standIn: CaldavStandIn;
let feedServer: Server;
let feedUrl: string;
let feedText = "";

beforeAll(async () => {
  standIn = await startCaldavStandIn();
  feedServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/calendar" }).end(feedText);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/team.ics`;
  server = await startTestServer(LIMITS);
  token = await server.adminToken();
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
  feedServer?.closeAllConnections();
  await new Promise((resolve) => feedServer?.close(resolve));
  for (const key of Object.keys(LIMITS)) delete process.env[key];
});

const lookUp = (ip: string, day = nextBookableWeekday()) =>
  server.fetch("/api/calcom/available-slots", {
    method: "POST",
    headers: { "fly-client-ip": ip },
    json: { startDate: day, day },
  });
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
const compact = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

describe("slot look-ups are limited per client and per network", () => {
  it("one client's look-ups sent at once: 5 answered, the rest 429 with a German message and Retry-After", async () => {
    const answers = await Promise.all(Array.from({ length: 9 }, () => lookUp("192.0.2.10")));
    const statuses = answers.map((r) => r.status);
    expect(count(statuses, 200)).toBe(5);
    expect(count(statuses, 429)).toBe(4);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await Promise.all(answers.filter((r) => r !== refused).map((r) => r.text()));
    expect((await refused.json()).error).toMatch(/^Zu viele Versuche\. Bitte warte \d+ Minuten?/);
    // Another client is not affected.
    expect((await lookUp("192.0.3.10")).status).toBe(200);
    // The counters live in SQLite: a restart forgets nothing.
    await server.close();
    closeDb();
    server = await startTestServer(LIMITS);
    token = await server.adminToken();
    const after = await lookUp("192.0.2.10");
    expect(after.status).toBe(429);
    await after.text();
  });

  it("three /56 of one /48 share 12 between them, sent at once; each keeps its own 5", async () => {
    const ips = ["2001:db8:c:100::1", "2001:db8:c:200::1", "2001:db8:c:300::1"];
    const answers = await Promise.all(
      ips.flatMap((ip) => Array.from({ length: 5 }, () => lookUp(ip))),
    );
    const statuses = answers.map((r) => r.status);
    await Promise.all(answers.map((r) => r.text()));
    expect(count(statuses, 200)).toBe(12);
    expect(count(statuses, 429)).toBe(3);
    expect((await lookUp("2001:db8:c:400::1")).status).toBe(429);
    expect((await lookUp("2001:db8:d:100::1")).status).toBe(200);
  });

  it("the booking page beyond the limit: a German message and 429, not a 500", async () => {
    const ip = "198.51.100.77";
    const submitted = await server.fetch("/api/requests", {
      method: "POST",
      headers: { "fly-client-ip": ip },
      body: multipart(validFields()),
    });
    expect(submitted.status).toBe(201);
    const id = ((await submitted.json()) as { id: number }).id;
    const cookie = (submitted.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const day = nextBookableWeekday();
    const page = () =>
      server.fetch(`/termin?anfrage=${id}&tag=${day}`, {
        headers: { cookie, "fly-client-ip": ip },
      });
    const pages = await Promise.all(Array.from({ length: 7 }, page));
    const statuses = pages.map((r) => r.status);
    expect(count(statuses, 200)).toBe(5);
    expect(count(statuses, 429)).toBe(2);
    const refused = pages.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toMatch(/Zu viele Versuche\. Bitte warte \d+ Minuten?/);
    // The month's grid is still there: the visitor can come back to it.
    expect(html).toContain("Nächster Monat");
    await Promise.all(pages.filter((r) => r !== refused).map((r) => r.text()));
  });
});

describe("a flood of look-ups from many clients", () => {
  it("does not hold up a team-calendar feed: it waits at most one look-up's deadline; expired look-ups are not run", async () => {
    // A CalDAV calendar with free-busy-query: every look-up of a new day is one job of the worker.
    const put = await server.fetch("/api/admin/account/calendar", {
      method: "PUT",
      token,
      json: { serverUrl: standIn.url, username: "tom", password: "tom-passwort" },
    });
    expect(put.status).toBe(200);
    const day = nextBookableWeekday();
    const ten = berlinTime(day, 10);
    feedText = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Test//DE",
      "BEGIN:VEVENT",
      "UID:meeting@x",
      "DTSTAMP:20260101T000000Z",
      `DTSTART:${compact(ten)}`,
      `DTEND:${compact(new Date(ten.getTime() + 3600_000))}`,
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");
    const configured = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { teamCalendar: { busyFeeds: [{ id: "team", url: feedUrl }] } },
    });
    expect(configured.status).toBe(200);

    // A calendar with 30,000 busy periods: each look-up's job takes the child a second or more.
    standIn.busy = Array.from({ length: 30_000 }, (_, i) => {
      const start = Date.UTC(2020, 0, 1) + i * 3600_000;
      return `${compact(new Date(start))}/${compact(new Date(start + 1800_000))}`;
    });
    // 20 clients (each its own /24), each a different weekday: 20 jobs at once.
    const days: string[] = [];
    for (let d = weekdayAfter(day); days.length < 20; d = weekdayAfter(d)) days.push(d);
    const before = server.testHooks.calendarWorker();
    const flood = days.map((d, i) => lookUp(`10.${i}.0.1`, d));
    // The look-ups are in the worker's queue (polled: a state, not a time).
    while (server.testHooks.calendarWorker().waiting < 4) await new Promise((r) => setImmediate(r));

    const db = testDb();
    try {
      db.prepare("UPDATE busy_feed_cache SET next_fetch_at = 0").run();
    } finally {
      db.close();
    }
    const started = performance.now();
    await server.testHooks.drainBusyFeeds();
    const feedMs = performance.now() - started;
    const answers = await Promise.all(flood);
    await Promise.all(answers.map((r) => r.text()));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);

    const row = (() => {
      const check = testDb();
      try {
        return check
          .prepare("SELECT busy, last_error FROM busy_feed_cache WHERE feed_id LIKE 'team:%'")
          .get() as { busy: string; last_error: string | null };
      } finally {
        check.close();
      }
    })();
    // The feed was read, not turned away as "busy".
    expect(row.last_error).toBeNull();
    expect(JSON.parse(row.busy)).toEqual([{ start: ten.getTime(), end: ten.getTime() + 3600_000 }]);
    // Before: the feed waited behind every look-up queued before it, or was turned away.
    expect(feedMs).toBeLessThan(6000);
    const after = server.testHooks.calendarWorker();
    // The feed's job waited at most for the one look-up running before it (its deadline: 3 s).
    expect(after.longestWaitMs.sync).toBeLessThanOrEqual(3000 + 500);
    // Look-ups waited in their own share: at most 4 of them, the rest turned away at once.
    expect(after.mostWaiting.lookup).toBeLessThanOrEqual(4);
    // Every look-up ended one way: run, turned away, dropped after its caller gave up (not
    // run), or shared with an identical one; the feed's job ran.
    const looked = after.lookups - before.lookups;
    expect(looked).toBeGreaterThan(0);
    expect(after.ran.sync - before.ran.sync).toBeGreaterThanOrEqual(1);
    expect(after.ran.lookup - before.ran.lookup).toBe(
      looked -
        (after.refused - before.refused) -
        (after.expired - before.expired) -
        (after.coalesced - before.coalesced),
    );
    console.info(
      `feed: ${Math.round(feedMs)} ms, its wait ${Math.round(after.longestWaitMs.sync)} ms; look-up jobs ${looked}, refused ${after.refused - before.refused}, expired ${after.expired - before.expired}`,
    );
  }, 120_000);
});
