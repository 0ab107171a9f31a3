// The team's real calendar, both ways (ADRs 335–337), against a real Radicale started here:
// connecting through the API, live busy times on the slots, a meeting entered a moment before
// the booking wins, the demo event written, moved and deleted, an edit made in Radicale shown
// on the card (and nobody mailed), erasure, the quarantine, the server down and slow.
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlinTime } from "~/lib/booking-calendar";
import { eventIcs } from "../caldav-fixtures";
import { type Radicale, startRadicale } from "../radicale";
import { testDb } from "./auth-helpers";
import { nextBookableWeekday, weekdayAfter } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let radicale: Radicale;
let server: TestServer;
let token: string;

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
const newRequest = (email: string, name = "Lea Geheim") =>
  Number(
    sql<{ id: number }>(
      "INSERT INTO requests (name, email, phone, company_description, description) VALUES (?, ?, '+49 30 1', 'Firma', 'Eine App') RETURNING id",
      name,
      email,
    )[0]?.id,
  );

const api = (path: string, method = "GET", json?: unknown) =>
  server.fetch(path, { method, token, json });

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  expect(res.status).toBe(200);
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

const book = (requestId: number, startTime: string) =>
  server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    token,
    json: { requestId, startTime, timeZone: "Europe/Berlin" },
  });

const utc = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");
const meeting = (uid: string, start: Date, minutes = 30) =>
  eventIcs({
    uid,
    start: utc(start.toISOString()),
    end: utc(new Date(start.getTime() + minutes * 60_000).toISOString()),
  });

/** The demo events in Radicale's "demos" calendar, parsed. */
async function demoEvents() {
  return (await radicale.objects("lea", "demos")).map(({ href, text: folded }) => {
    const text = folded.replace(/\r?\n[ \t]/g, "");
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent(
      "vevent",
    ) as ICAL.Component;
    return {
      href,
      text,
      uid: String(event.getFirstPropertyValue("uid")),
      summary: String(event.getFirstPropertyValue("summary")),
      start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
      sequence: Number(event.getFirstPropertyValue("sequence") ?? 0),
    };
  });
}

const appointment = async (id: number) => {
  const res = await api(`/api/admin/appointments?limit=100`);
  const list = (await res.json()).appointments as {
    id: number;
    startTime: string;
    calendar: { note: string | null; change: { kind: string; start?: string } | null };
  }[];
  return list.find((a) => a.id === id);
};

/** The dashboard as text (React's `<!-- -->` between text parts removed). */
async function dashboardText() {
  const cookie = await server.adminCookie();
  const html = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
  return html.replace(/<!-- -->/g, "");
}

beforeAll(async () => {
  radicale = await startRadicale({ lea: "app-passwort-1" });
  await radicale.makeCalendar("lea", "arbeit", "Arbeit");
  await radicale.makeCalendar("lea", "demos", "Demos");
  await radicale.makeCalendar("lea", "geburtstage", "Geburtstage");
  server = await startTestServer({ WEBHOOK_ALLOW_LOCAL: "true" });
  token = await server.adminToken();
  await api("/api/configuration", "PATCH", {
    teamCalendar: { videoUrl: "https://meet.example.com/demo-raum" },
  });
});
afterAll(async () => {
  await server?.close();
  await radicale?.close();
});

describe("connecting a calendar (API twin of Account-Einstellungen)", () => {
  it("names a wrong app password at its field, then connects with discovery and keeps the password sealed", async () => {
    const wrong = await api("/api/admin/account/calendar", "PUT", {
      serverUrl: radicale.url,
      username: "lea",
      password: "falsch",
    });
    expect(wrong.status).toBe(400);
    const refused = await wrong.json();
    expect(refused.error).toMatch(/Anmeldung abgelehnt \(401\)/);
    expect(refused.fieldErrors.password).toBeTruthy();

    const res = await api("/api/admin/account/calendar", "PUT", {
      serverUrl: radicale.url,
      username: "lea",
      password: "app-passwort-1",
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.message).toMatch(/3 Kalender gefunden/);
    expect(body.calendar.calendars.map((c: { name: string }) => c.name).sort()).toEqual([
      "Arbeit",
      "Demos",
      "Geburtstage",
    ]);
    expect(JSON.stringify(body)).not.toContain("app-passwort-1");
    const stored = sql<{ password: string }>("SELECT password FROM calendar_connections")[0];
    expect(stored?.password).toMatch(/^enc:v1:/);

    const chosen = await api("/api/admin/account/calendar", "PATCH", {
      busyCalendars: [radicale.calendarUrl("lea", "arbeit")],
      writeCalendar: radicale.calendarUrl("lea", "demos"),
      takesDemos: false,
    });
    expect(chosen.status).toBe(200);
    const unknown = await api("/api/admin/account/calendar", "PATCH", {
      busyCalendars: ["https://evil.example.com/cal/"],
      writeCalendar: null,
      takesDemos: false,
    });
    expect(unknown.status).toBe(400);

    const test = await api("/api/admin/account/calendar/test", "POST");
    expect(test.status).toBe(200);
    expect((await test.json()).message).toMatch(/Verbindung erfolgreich/);
  });

  it("is session-only: an API token gets 401", async () => {
    const created = await api("/api/admin/api-tokens", "POST", {
      name: "Integration",
      scopes: ["appointments:read"],
      password: "admin-passwort",
    });
    const apiToken = (await created.json()).token as string;
    const res = await server.fetch("/api/admin/account/calendar", { token: apiToken });
    expect(res.status).toBe(401);
  });
});

describe("live busy times and the booking", () => {
  const day = () => weekdayAfter(nextBookableWeekday(), 1);

  it("a meeting in a busy calendar removes its slot; other calendars do not count", async () => {
    const d = day();
    await radicale.putObject(
      "lea",
      "arbeit",
      "jour-fixe.ics",
      meeting("jour-fixe", berlinTime(d, 10, 0), 60),
    );
    await radicale.putObject(
      "lea",
      "geburtstage",
      "geburtstag.ics",
      meeting("geburtstag", berlinTime(d, 14, 0)),
    );
    const slots = await slotsOf(d);
    expect(slots).not.toContain(berlinTime(d, 10, 0).toISOString());
    expect(slots).not.toContain(berlinTime(d, 10, 30).toISOString());
    expect(slots).toContain(berlinTime(d, 11, 0).toISOString());
    expect(slots).toContain(berlinTime(d, 14, 0).toISOString());
    // Only start and end are kept.
    const cached = sql<{ busy: string }>("SELECT busy FROM calendar_busy WHERE day = ?", d)[0];
    expect(cached?.busy).not.toContain("Besprechung");
  });

  it("a meeting entered one second before confirming wins (the booking asks again)", async () => {
    const d = day();
    const slot = berlinTime(d, 11, 0);
    expect(await slotsOf(d)).toContain(slot.toISOString());
    await radicale.putObject("lea", "arbeit", "kurzfristig.ics", meeting("kurzfristig", slot));
    const res = await book(newRequest("spaet@example.com"), slot.toISOString());
    expect(res.status).toBe(409);
    expect((await res.json()).error ?? "").toMatch(/gerade vergeben/);
  });

  it("writes the demo event, moves it (If-Match, SEQUENCE) and deletes it on cancel", async () => {
    const d = day();
    const requestId = newRequest("demo@example.com", "Lea Geheim");
    const start = berlinTime(d, 15, 0);
    const res = await book(requestId, start.toISOString());
    expect(res.status).toBe(201);
    const id = (await res.json()).appointment.id as number;
    await server.testHooks.drainCalendarEvents();
    const written = (await demoEvents()).find((e) => e.start === start.toISOString());
    expect(written).toBeTruthy();
    expect(written?.summary).toBe(`Demo #${String(requestId).padStart(4, "0")}`);
    expect(written?.text).toContain(`/admin/requests?requestId=${requestId}`);
    expect(written?.text).toContain("LOCATION:https://meet.example.com/demo-raum");
    expect(written?.text).not.toMatch(/ATTENDEE|ORGANIZER|demo@example\.com|Lea Geheim/);

    const to = berlinTime(d, 16, 0);
    const moved = await api(`/api/admin/appointments/${id}/reschedule`, "POST", {
      startTime: to.toISOString(),
    });
    expect(moved.status).toBe(200);
    await server.testHooks.drainCalendarEvents();
    const after = (await demoEvents()).filter((e) => e.uid === written?.uid);
    expect(after).toHaveLength(1);
    expect(after[0]?.start).toBe(to.toISOString());
    expect(after[0]?.sequence).toBe(1);

    const cancelled = await api(`/api/admin/appointments/${id}/cancel`, "POST");
    expect(cancelled.status).toBe(200);
    await server.testHooks.drainCalendarEvents();
    expect((await demoEvents()).some((e) => e.uid === written?.uid)).toBe(false);
  });

  it("an edit made in Radicale shows on the card, mails nobody; one click moves the booking", async () => {
    const d = weekdayAfter(day(), 1);
    const requestId = newRequest("verschoben@example.com");
    const start = berlinTime(d, 9, 0);
    const id = (await (await book(requestId, start.toISOString())).json()).appointment.id as number;
    await server.testHooks.drainCalendarEvents();
    await server.drainOutbox();
    const mailsBefore = sql<{ n: number }>("SELECT count(*) AS n FROM mail_outbox")[0]?.n;
    const event = (await demoEvents()).find((e) => e.start === start.toISOString());
    expect(event).toBeTruthy();
    const name = event?.href.split("/").pop() as string;
    // Someone drags the event to 13:00 in their calendar app.
    const to = berlinTime(d, 13, 0);
    await radicale.putObject(
      "lea",
      "demos",
      name,
      String(event?.text)
        .replace(/DTSTART:\d{8}T\d{6}Z/, `DTSTART:${utc(to.toISOString())}`)
        .replace(
          /DTEND:\d{8}T\d{6}Z/,
          `DTEND:${utc(new Date(to.getTime() + 30 * 60_000).toISOString())}`,
        ),
    );
    run("UPDATE calendar_connections SET next_sync_at = 0");
    await server.testHooks.drainCalendarSync();
    expect((await appointment(id))?.calendar.change).toEqual({
      kind: "moved",
      start: to.toISOString(),
      end: new Date(to.getTime() + 30 * 60_000).toISOString(),
    });
    await server.drainOutbox();
    expect(sql<{ n: number }>("SELECT count(*) AS n FROM mail_outbox")[0]?.n).toBe(mailsBefore);

    // The card's one click: the booking moves properly (the visitor is mailed as after any move).
    const cookie = await server.adminCookie();
    const posted = await server.fetch("/admin/appointments", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({
        intent: "calendar-move",
        id: String(id),
        startTime: to.toISOString(),
      }).toString(),
    });
    expect(posted.status).toBe(302);
    const now = await appointment(id);
    expect(now?.startTime).toBe(to.toISOString());
    await server.testHooks.drainCalendarEvents();
    expect((await appointment(id))?.calendar.change).toBeNull();

    // Deleted in Radicale: the card says so.
    await radicale.deleteObject("lea", "demos", name);
    run("UPDATE calendar_connections SET next_sync_at = 0");
    await server.testHooks.drainCalendarSync();
    expect((await appointment(id))?.calendar.change).toEqual({ kind: "deleted" });
  });

  it("a held request's booking is written only on release; erasure deletes the event", async () => {
    const d = weekdayAfter(day(), 2);
    const requestId = newRequest("gehalten@example.com");
    run("UPDATE requests SET quarantined_at = ? WHERE id = ?", Date.now(), requestId);
    const start = berlinTime(d, 10, 0);
    expect((await book(requestId, start.toISOString())).status).toBe(201);
    await server.testHooks.drainCalendarEvents();
    expect((await demoEvents()).some((e) => e.start === start.toISOString())).toBe(false);
    const released = await api(`/api/requests/${requestId}`, "PATCH", { quarantined: false });
    expect(released.status).toBe(200);
    await server.testHooks.drainCalendarEvents();
    expect((await demoEvents()).some((e) => e.start === start.toISOString())).toBe(true);

    const erased = await api(`/api/requests/${requestId}`, "DELETE");
    expect(erased.status).toBeLessThan(300);
    await server.testHooks.drainCalendarEvents();
    expect((await demoEvents()).some((e) => e.start === start.toISOString())).toBe(false);
  });
});

describe("the calendar server down and slow", () => {
  it("down: the last known busy times keep counting, the booking carries a note, the dashboard warns", async () => {
    const d = weekdayAfter(nextBookableWeekday(), 6);
    await radicale.putObject(
      "lea",
      "arbeit",
      "vor-ausfall.ics",
      meeting("vor-ausfall", berlinTime(d, 9, 0)),
    );
    expect(await slotsOf(d)).not.toContain(berlinTime(d, 9, 0).toISOString());
    await radicale.stop();
    try {
      run("UPDATE calendar_busy SET fetched_at = fetched_at - 120000");
      const slots = await slotsOf(d);
      expect(slots).not.toContain(berlinTime(d, 9, 0).toISOString());
      expect(slots).toContain(berlinTime(d, 9, 30).toISOString());
      // A day it never answered for counts as busy all day: never "everything free".
      expect(await slotsOf(weekdayAfter(d, 1))).toEqual([]);
      const res = await book(
        newRequest("ausfall@example.com"),
        berlinTime(d, 11, 30).toISOString(),
      );
      expect(res.status).toBe(201);
      const booked = (await res.json()).appointment;
      expect(booked.calendar.note).toMatch(/nicht erreichbar: Kalender von admin/);
      const dashboard = await dashboardText();
      expect(dashboard).toContain("Kalender von admin (127.0.0.1:");
      expect(dashboard).toMatch(/nicht erreichbar/);
    } finally {
      await radicale.start();
    }
    // Back: the next answer clears the warning.
    run("UPDATE calendar_busy SET fetched_at = 0");
    await slotsOf(d);
    const dashboard = await dashboardText();
    expect(dashboard).not.toContain("Kalender von admin");
  });

  it("an app password that stops working shows on the dashboard and in Account-Einstellungen", async () => {
    const users = { lea: "app-passwort-1" };
    radicale.setPassword("lea", "neues-passwort");
    try {
      run("UPDATE calendar_busy SET fetched_at = 0");
      await slotsOf(weekdayAfter(nextBookableWeekday(), 4));
      expect(await dashboardText()).toContain("Das App-Passwort wird nicht mehr angenommen");
      const cookie = await server.adminCookie();
      const account = (
        await (await server.fetch("/admin/account", { headers: { cookie } })).text()
      ).replace(/<!-- -->/g, "");
      expect(account).toContain("Das App-Passwort wird nicht mehr angenommen");
      const shown = await (await api("/api/admin/account/calendar")).json();
      expect(shown.calendar.errorKind).toBe("auth");
    } finally {
      radicale.setPassword("lea", users.lea);
    }
  });

  it("slow: a frozen server costs at most the 3 s budget, never a stalled request", async () => {
    const d = weekdayAfter(nextBookableWeekday(), 8);
    radicale.freeze();
    try {
      const started = Date.now();
      const slots = await slotsOf(d);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(2900);
      expect(took).toBeLessThan(6000);
      expect(slots).toEqual([]);
      const health = await server.fetch("/healthz");
      expect(health.status).toBe(200);
    } finally {
      radicale.thaw();
    }
  });
});
