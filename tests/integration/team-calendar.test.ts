// The team's calendar (ADR 266): busy times from secret ICS feeds on a loopback server (up, down,
// slow, huge, redirect), masked and sealed URLs, the private feed of booked demos (parsed with
// ical.js) and the video link in mail (loopback SMTP), .ics and the manage page.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, berlinTime, firstBookableDay } from "~/lib/booking-calendar";
import { type ReceivedMail, startSmtpInbox } from "../smtp-inbox";
import { testDb } from "./auth-helpers";
import { weekdayAfter, weekdayFrom } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let feedText = "";
let feedDown = false;

/** ICS feeds on 127.0.0.1: /feed (the current text, or 503 while "down"), /slow, /huge, /redirect. */
async function startFeedServer() {
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path.startsWith("/feed")) {
      if (feedDown) res.writeHead(503).end("Wartung");
      else res.writeHead(200, { "content-type": "text/calendar" }).end(feedText);
    } else if (path === "/slow") {
      // No answer at all: the time-out.
    } else if (path === "/huge") {
      res.writeHead(200, { "content-type": "text/calendar" });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (!res.destroyed && sent < 3 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (res.destroyed || sent >= 3 * 1024 * 1024) return res.end();
        res.once("drain", pump);
      };
      pump();
    } else if (path === "/redirect") {
      res.writeHead(302, { location: "http://127.0.0.1:1/feed" }).end();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let server: TestServer;
let token: string;
let cookie: string;
let feeds: Awaited<ReturnType<typeof startFeedServer>>;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}
function run(query: string, ...params: unknown[]) {
  const db = testDb();
  try {
    db.prepare(query).run(...params);
  } finally {
    db.close();
  }
}

/** A request straight in the database (name and contact: test data). */
function newRequest(email: string, name = "Lea Geheim"): number {
  return Number(
    sql<{ id: number }>(
      "INSERT INTO requests (name, email, phone, company_description, description) VALUES (?, ?, '+49 30 1', 'Firma mit Ideen für Software', 'Eine App') RETURNING id",
      name,
      email,
    )[0]?.id,
  );
}

/** The next weekday from the first bookable day, and that day a week later. */
function weekdayAhead(): string {
  let day = firstBookableDay(1);
  for (;;) {
    const d = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (d !== 0 && d !== 6) return day;
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
  }
}
const plusDays = (day: string, n: number) =>
  new Date(new Date(`${day}T12:00:00Z`).getTime() + n * 86_400_000).toISOString().slice(0, 10);
const compact = (day: string) => day.replaceAll("-", "");

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  expect(res.status).toBe(200);
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

const patchConfig = (json: unknown) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json });

/** Every feed due now, then one drain of the worker. */
async function fetchFeedsNow() {
  run("UPDATE busy_feed_cache SET next_fetch_at = 0");
  await server.testHooks.drainBusyFeeds();
}
const cacheRow = (id: string) =>
  sql<{ busy: string; fetched_at: number | null; last_error: string | null }>(
    "SELECT busy, fetched_at, last_error FROM busy_feed_cache WHERE feed_id LIKE ?",
    `${id}:%`,
  )[0];

function postForm(path: string, fields: Record<string, string>) {
  return server.fetch(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: server.url,
      cookie,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  feeds = await startFeedServer();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    WEBHOOK_TIMEOUT_MS: "800",
    BOOKING_RATE_LIMIT: "1000/1h",
  });
  token = await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
  await feeds.close();
  await inbox.close();
  delete process.env.WEBHOOK_TIMEOUT_MS;
});

describe("busy times from the team's ICS feeds", () => {
  const day = weekdayAhead();
  const busy10 = berlinTime(day, 10).toISOString();
  const busy1030 = berlinTime(day, 10, 30).toISOString();

  it("a recurring event with TZID removes its slots, every week; the URL is sealed and masked", async () => {
    feedText = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Test//DE",
      "BEGIN:VEVENT",
      "UID:jour-fixe@test",
      "DTSTAMP:20260101T000000Z",
      "SUMMARY:Vertrauliches Jour fixe",
      `DTSTART;TZID=Europe/Berlin:${compact(day)}T100000`,
      `DTEND;TZID=Europe/Berlin:${compact(day)}T110000`,
      "RRULE:FREQ=WEEKLY;COUNT=3",
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");
    expect(await slotsOf(day)).toContain(busy10);
    const secretUrl = `${feeds.url}/feed/geheim-0123456789abcdef`;
    const res = await patchConfig({
      teamCalendar: { busyFeeds: [{ id: "team", url: secretUrl }] },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).not.toContain("geheim-0123456789");
    const get = await server.fetch("/api/configuration", { token });
    const shown = (await get.json()) as { teamCalendar: { busyFeeds: { url: string }[] } };
    expect(shown.teamCalendar.busyFeeds[0]?.url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/••••••••cdef$/,
    );
    const stored = sql<{ data: string }>("SELECT data FROM configuration WHERE id = 1")[0]?.data;
    expect(stored).not.toContain("geheim-0123456789");
    expect(stored).toContain("enc:v1:");

    await fetchFeedsNow();
    expect(cacheRow("team")).toMatchObject({ last_error: null });
    const slots = await slotsOf(day);
    expect(slots).not.toContain(busy10);
    expect(slots).not.toContain(busy1030);
    expect(slots).toContain(berlinTime(day, 11).toISOString());
    expect(slots).toContain(berlinTime(day, 9, 30).toISOString());
    const nextWeek = plusDays(day, 7);
    expect(await slotsOf(nextWeek)).not.toContain(berlinTime(nextWeek, 10).toISOString());
    // Only start and end are kept: no title in the cache.
    expect(cacheRow("team")?.busy).not.toContain("Jour");

    // Booking the busy time directly is refused too.
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: {
        requestId: newRequest("busy@example.com"),
        startTime: busy10,
        timeZone: "Europe/Berlin",
      },
    });
    expect(booked.status).toBe(400);

    // A masked URL sent back keeps the stored one (and its cache).
    const again = await patchConfig({
      teamCalendar: {
        busyFeeds: shown.teamCalendar.busyFeeds.map((f, i) => ({
          ...f,
          id: i === 0 ? "team" : "x",
        })),
      },
    });
    expect(again.status).toBe(200);
    expect(await slotsOf(day)).not.toContain(busy10);
  });

  it("a feed that is down keeps its last busy times and warns on the dashboard and settings page", async () => {
    feedDown = true;
    await fetchFeedsNow();
    const row = cacheRow("team");
    expect(row?.last_error).toBe("HTTP 503");
    expect(row?.fetched_at).not.toBeNull();
    expect(await slotsOf(day)).not.toContain(busy10);
    const dashboard = await (
      await server.fetch("/admin/dashboard", { headers: { cookie } })
    ).text();
    expect(dashboard).toContain("Ein Kalender des Teams ist gerade nicht erreichbar.");
    expect(dashboard).toContain("Der Server antwortete mit 503");
    expect(dashboard).not.toContain("geheim-0123456789");
    const settings = await (await server.fetch("/admin/settings", { headers: { cookie } })).text();
    expect(settings).toContain("Letzter Abruf fehlgeschlagen");
    expect(settings).toMatch(/Stand: (gerade eben|vor \d+ Min)/);
    expect(settings).not.toContain("geheim-0123456789");

    feedDown = false;
    await fetchFeedsNow();
    expect(cacheRow("team")?.last_error).toBeNull();
    const healthy = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
    expect(healthy).not.toContain("gerade nicht erreichbar");
  });

  it("a feed cut off (a series too long to expand) is called incomplete on the dashboard, not unreachable", async () => {
    const before = feedText;
    feedText = before.replace(
      "END:VCALENDAR",
      [
        "BEGIN:VEVENT",
        "UID:endlos@test",
        "DTSTAMP:20100101T000000Z",
        "DTSTART:20100101T000000Z",
        "DTEND:20100101T000030Z",
        "RRULE:FREQ=MINUTELY",
        "END:VEVENT",
        "END:VCALENDAR",
      ].join("\r\n"),
    );
    await fetchFeedsNow();
    expect(cacheRow("team")?.last_error).toMatch(/^Unvollständig: 1 Serientermin hat/);
    // The feed answered: its other busy times count.
    expect(await slotsOf(day)).not.toContain(busy10);
    const dashboard = await (
      await server.fetch("/admin/dashboard", { headers: { cookie } })
    ).text();
    expect(dashboard).toContain("Ein Kalender des Teams ist nur unvollständig eingelesen.");
    expect(dashboard).toContain("Unvollständig: 1 Serientermin hat");
    expect(dashboard).not.toContain("nicht erreichbar");
    expect(dashboard).not.toContain("Bis er wieder antwortet");

    feedText = before;
    await fetchFeedsNow();
    expect(cacheRow("team")?.last_error).toBeNull();
  });

  it("a slow feed times out, a huge one is capped at 2 MB, a redirect is refused", async () => {
    const res = await patchConfig({
      teamCalendar: {
        busyFeeds: [
          { id: "team", url: "••••" },
          { id: "slow", url: `${feeds.url}/slow` },
          { id: "huge", url: `${feeds.url}/huge` },
          { id: "moved", url: `${feeds.url}/redirect` },
        ],
      },
    });
    expect(res.status).toBe(200);
    await fetchFeedsNow();
    expect(cacheRow("slow")?.last_error).toBe("Zeitüberschreitung nach 800 ms.");
    expect(cacheRow("huge")?.last_error).toBe("Antwort größer als 2 MB.");
    expect(cacheRow("moved")?.last_error).toBe("HTTP 302: Weiterleitungen werden nicht verfolgt.");
    // The working feed still counts.
    expect(cacheRow("team")?.last_error).toBeNull();
    expect(await slotsOf(day)).not.toContain(busy10);
  });

  it("the webhooks' SSRF rules refuse a link-local target when saving", async () => {
    const res = await patchConfig({
      teamCalendar: { busyFeeds: [{ id: "meta", url: "http://169.254.169.254/latest/meta-data" }] },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fieldErrors["teamCalendar.busyFeeds.0.url"][0]).toMatch(/nicht erlaubt/);
  });

  it("removing the feeds frees the slots again", async () => {
    expect(cacheRow("slow")?.last_error).toBeTruthy();
    expect((await patchConfig({ teamCalendar: { busyFeeds: [] } })).status).toBe(200);
    expect(await slotsOf(day)).toContain(busy10);
    // Their cached busy times and states are gone; the dashboard warns about none of them.
    for (const id of ["team", "slow", "huge", "moved"]) expect(cacheRow(id)).toBeUndefined();
    const dashboard = await (
      await server.fetch("/admin/dashboard", { headers: { cookie } })
    ).text();
    expect(dashboard).not.toContain("gerade nicht erreichbar");
  });

  it("busy times are honoured up to the configured horizon (730 days), not only 400 days ahead", async () => {
    // horizonDays may be up to 730 (0 = unlimited, the default): a known meeting 450 days ahead
    // blocks its slot like one next week.
    const far = weekdayFrom(addDays(firstBookableDay(1), 450));
    const [ten, twelve] = [berlinTime(far, 10), berlinTime(far, 12)];
    const ics = (d: Date) => d.toISOString().replace(/[-:]|\.\d{3}/g, "");
    feedText = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Test//DE",
      "BEGIN:VEVENT",
      "UID:far@test",
      "DTSTAMP:20260101T000000Z",
      `DTSTART:${ics(ten)}`,
      `DTEND:${ics(twelve)}`,
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");
    const saved = await patchConfig({
      scheduling: { horizonDays: 730 },
      teamCalendar: { busyFeeds: [{ id: "far", url: `${feeds.url}/feed` }] },
    });
    expect(saved.status).toBe(200);
    await fetchFeedsNow();
    // The feed was fetched fine: a missing block would be the horizon's doing, not the fetch's.
    expect(cacheRow("far")).toMatchObject({ last_error: null });
    expect(cacheRow("far")?.fetched_at).not.toBeNull();
    const slots = await slotsOf(far);
    expect(slots.length).toBeGreaterThan(0); // the day itself is bookable (within the horizon)
    expect(slots).not.toContain(ten.toISOString());
    await patchConfig({ scheduling: { horizonDays: 0 }, teamCalendar: { busyFeeds: [] } });
  });
});

describe("the private feed of booked demos", () => {
  it("a token link (hashed, audited) serves only time, 'Demo #…' and the admin link; revoked → 404", async () => {
    const requestId = newRequest("lea@example.com");
    const slot = (await slotsOf(plusDays(weekdayAhead(), 1)))[0] as string;
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId, startTime: slot, timeZone: "Europe/Berlin" },
    });
    expect(booked.status).toBe(201);

    const created = await postForm("/admin/settings", { intent: "team-calendar-link-create" });
    expect(created.status).toBe(200);
    const html = await created.text();
    const link = html.match(/https?:\/\/[^"\s]+\/admin\/kalender\.ics\?token=([\w-]+)/);
    if (!link) throw new Error("no feed link on the page");
    const feedToken = link[1] as string;
    expect(sql("SELECT 1 FROM calendar_feed_tokens WHERE token_hash = ?", feedToken)).toHaveLength(
      0,
    );
    expect(
      sql<{ action: string }>(
        "SELECT action FROM audit_log WHERE action = 'calendar-feed-created'",
      ),
    ).toHaveLength(1);

    const res = await server.fetch(`/admin/kalender.ics?token=${feedToken}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/calendar");
    const text = await res.text();
    expect(text).not.toMatch(/Lea|lea@example|\+49/);
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    const demo = events.find((e) => e.startDate.toJSDate().toISOString() === slot);
    expect(demo?.summary).toBe(`Demo #${String(requestId).padStart(4, "0")}`);
    const adminLink = new URL(String(demo?.component.getFirstPropertyValue("url")));
    expect(`${adminLink.pathname}${adminLink.search}`).toBe(
      `/admin/requests?requestId=${requestId}`,
    );
    expect(demo?.attendees).toHaveLength(0);

    expect((await server.fetch("/admin/kalender.ics?token=falsch")).status).toBe(404);
    expect((await server.fetch("/admin/kalender.ics")).status).toBe(404);
    const id = sql<{ id: number }>("SELECT id FROM calendar_feed_tokens")[0]?.id as number;
    const revoked = await postForm("/admin/settings", {
      intent: "team-calendar-link-revoke",
      tokenId: String(id),
    });
    expect(revoked.status).toBe(302);
    expect((await server.fetch(`/admin/kalender.ics?token=${feedToken}`)).status).toBe(404);
    expect(sql("SELECT 1 FROM audit_log WHERE action = 'calendar-feed-revoked'")).toHaveLength(1);
  });
});

describe("the video link", () => {
  const inviteOf = (mail: ReceivedMail) => {
    const part = mail.attachments.find((a) => a.mimeType === "text/calendar");
    if (!part) throw new Error(`no invite in "${mail.subject}"`);
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(part.content)).getFirstSubcomponent("vevent") as ICAL.Component,
    );
    return {
      sequence: event.sequence,
      location: event.location,
      url: event.component.getFirstPropertyValue("url"),
    };
  };
  const mailsTo = (to: string, subject: RegExp) =>
    inbox.mails.filter((m) => m.to.includes(to) && subject.test(m.subject));
  const manageLink = (mail: ReceivedMail) =>
    (mail.text.match(/https?:\/\/\S+\/termin\/verwalten\?token=[\w.-]+/) ?? [""])[0];

  async function book(email: string, dayOffset: number) {
    const requestId = newRequest(email, "Vera Video");
    // `dayOffset` working days after the first bookable one (a weekend has no slots).
    let day = weekdayAhead();
    for (let i = 0; i < dayOffset; i++) day = weekdayAfter(day);
    const slot = (await slotsOf(day))[0] as string;
    const res = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId, startTime: slot, timeZone: "Europe/Berlin" },
    });
    expect(res.status).toBe(201);
    return (
      (await res.json()).appointment?.id ??
      sql<{ id: number }>("SELECT id FROM appointments WHERE request_id = ?", requestId)[0]?.id
    );
  }

  it("set on a card: https only; the updated invite (next SEQUENCE, LOCATION/URL), mail and manage page carry it", async () => {
    const id = await book("vera@example.com", 2);
    await server.drainOutbox();
    const insecure = await server.fetch(`/api/admin/appointments/${id}`, {
      method: "PATCH",
      token,
      json: { videoUrl: "http://meet.example.com/demo" },
    });
    expect(insecure.status).toBe(400);
    expect((await insecure.json()).error).toMatch(/https/);

    const room = "https://meet.example.com/demo-vera";
    const res = await server.fetch(`/api/admin/appointments/${id}`, {
      method: "PATCH",
      token,
      json: { videoUrl: room },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.appointment.videoUrl).toBe(room);
    expect(body.appointment.ownVideoUrl).toBe(true);
    await server.drainOutbox();
    const [update] = mailsTo("vera@example.com", /^Link zum Videocall/);
    if (!update) throw new Error("no update mail");
    expect(update.text).toContain(room);
    const invite = inviteOf(update);
    expect(invite.sequence).toBe(1);
    expect(invite.location).toBe(room);
    expect(invite.url).toBe(room);
    const manage = new URL(manageLink(update));
    const page = await (await server.fetch(`${manage.pathname}${manage.search}`)).text();
    expect(page).toContain(`href="${room}"`);

    // The same link again changes nothing and mails nothing.
    const same = await server.fetch(`/api/admin/appointments/${id}`, {
      method: "PATCH",
      token,
      json: { videoUrl: room },
    });
    expect((await same.json()).changed).toBe(false);
    await server.drainOutbox();
    expect(mailsTo("vera@example.com", /^Link zum Videocall/)).toHaveLength(1);
  });

  it("the fixed room of the settings goes into the confirmation and its invite; the card form works without JS", async () => {
    const room = "https://meet.example.com/team-raum";
    const bad = await patchConfig({ teamCalendar: { videoUrl: "ftp://x" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors["teamCalendar.videoUrl"][0]).toContain(
      "gültige https-Adresse",
    );
    expect((await patchConfig({ teamCalendar: { videoUrl: room } })).status).toBe(200);
    const id = await book("fix@example.com", 3);
    await server.drainOutbox();
    const [confirmation] = mailsTo("fix@example.com", /^Dein Demo-Termin am/);
    if (!confirmation) throw new Error("no confirmation");
    expect(confirmation.text).toContain(`Zum Videocall kommst du über diesen Link: ${room}`);
    expect(inviteOf(confirmation).location).toBe(room);

    const own = "https://meet.example.com/eigener-raum";
    const posted = await postForm("/admin/appointments", {
      intent: "video-link",
      id: String(id),
      videoUrl: own,
    });
    expect(posted.status).toBe(302);
    const list = await server.fetch(`/api/admin/appointments?limit=100`, { token });
    const card = ((await list.json()).appointments as { id: number; videoUrl: string }[]).find(
      (a) => a.id === id,
    );
    expect(card?.videoUrl).toBe(own);
  });
});
