// ADR 282: admins cancel and move built-in bookings (card forms without JS, the API with an API
// token's appointments:write), the visitor mailed like after their own change (loopback SMTP);
// the booking being moved blocks nothing around it (buffers, daily maximum) on the manage page,
// the admin's move page and in the move's guard; a quarantined request's video link mails nobody.
import { and, eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, berlinTime, firstBookableDay, weekday } from "~/lib/booking-calendar";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { manageToken } from "~/server/appointments/manage-link.server";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { appointments, auditLog, mailOutbox, requests } from "~db/schema";
import { type ReceivedMail, startSmtpInbox } from "../smtp-inbox";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
let token: string;
let cookie: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, BOOKING_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

/** The n-th open day (Mon–Fri, no holiday or blocked day) from the first bookable day. */
const openDays: string[] = [];
async function weekdayNo(n: number): Promise<string> {
  let day = openDays.at(-1) ? addDays(openDays.at(-1) as string, 1) : firstBookableDay(1);
  while (openDays.length <= n) {
    const res = await server.fetch("/api/calcom/available-slots", {
      method: "POST",
      json: { startDate: day, day },
    });
    if (weekday(day) !== 0 && weekday(day) !== 6 && (await res.json()).slots.length === 16)
      openDays.push(day);
    day = addDays(day, 1);
  }
  return openDays[n] as string;
}

let seq = 0;
function newRequest(quarantined = false) {
  seq += 1;
  return db()
    .insert(requests)
    .values({
      name: `Kim Termin ${seq}`,
      email: `termin${seq}@example.com`,
      phone: "+49 30 123456",
      companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
      description: "App",
      quarantinedAt: quarantined ? new Date() : null,
    })
    .returning()
    .get();
}

async function book(requestId: number, start: Date) {
  const res = await server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    token,
    json: { requestId, startTime: start.toISOString(), timeZone: "Europe/Berlin" },
  });
  expect(res.status).toBe(201);
  const row = db().select().from(appointments).where(eq(appointments.requestId, requestId)).get();
  if (!row) throw new Error("not booked");
  return row;
}

const mailsTo = (to: string) => inbox.mails.filter((m) => m.to.includes(to));
const inviteOf = (mail: ReceivedMail) => {
  const part = mail.attachments.find((a) => a.mimeType === "text/calendar");
  if (!part) throw new Error(`no invite in "${mail.subject}"`);
  const event = new ICAL.Event(
    new ICAL.Component(ICAL.parse(part.content)).getFirstSubcomponent("vevent") as ICAL.Component,
  );
  return { method: part.method, sequence: event.sequence, start: event.startDate.toJSDate() };
};

async function apiToken(scopes: string[]) {
  const res = await server.fetch("/api/admin/api-tokens", {
    method: "POST",
    token,
    json: { name: `Termine ${scopes.join(",")}`, scopes, password: "admin-passwort" },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

function postForm(path: string, fields: Record<string, string>) {
  return server.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The slot times (ISO) of a server-rendered slot choice. */
const slotTimesOf = (html: string) =>
  [...html.matchAll(/name="startTime" value="([^"]+)"/g)].map((m) => m[1]);

const audited = (action: string) =>
  db()
    .select()
    .from(auditLog)
    .all()
    .filter((e) => e.action === action);

describe("POST /api/admin/appointments/{id}/reschedule and /cancel", () => {
  it("an API token with appointments:write moves and cancels; the visitor gets the updated invite and the cancellation; audited", async () => {
    const day = await weekdayNo(0);
    const r = newRequest();
    const row = await book(r.id, berlinTime(day, 10, 0));
    await server.drainOutbox();

    const reader = await apiToken(["appointments:read"]);
    const writer = await apiToken(["appointments:write"]);
    const to = berlinTime(day, 14, 30);
    const path = `/api/admin/appointments/${row.id}/reschedule`;
    const denied = await server.fetch(path, {
      method: "POST",
      token: reader,
      json: { startTime: to.toISOString() },
    });
    expect(denied.status).toBe(403);
    const missing = await server.fetch(path, { method: "POST", token: writer, json: {} });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("Bitte wählen Sie Datum und Uhrzeit aus.");
    const offGrid = await server.fetch(path, {
      method: "POST",
      token: writer,
      json: { startTime: berlinTime(day, 20, 0).toISOString() },
    });
    expect(offGrid.status).toBe(400);

    const moved = await server.fetch(path, {
      method: "POST",
      token: writer,
      json: { startTime: to.toISOString() },
    });
    expect(moved.status).toBe(200);
    const body = await moved.json();
    expect(body.appointment.startTime).toBe(to.toISOString());
    // As after the visitor's own move, the updated invite waits for the one-invitation-per-hour
    // budget of the mailbox (ADR 255): held in the outbox, sent once its hour has passed.
    const held = db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, r.email), eq(mailOutbox.kind, "booking-rescheduled")))
      .all();
    expect(held).toHaveLength(1);
    db()
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(mailOutbox.id, held[0]?.id ?? 0))
      .run();
    await server.drainOutbox();
    const update = mailsTo(r.email).find((m) => /verschoben/.test(m.subject));
    if (!update) throw new Error("no update mail");
    expect(inviteOf(update)).toMatchObject({ method: "REQUEST", sequence: 1, start: to });
    expect(audited("appointment-moved").map((e) => e.target)).toEqual([`Termin ${row.id}`]);

    const cancelled = await server.fetch(`/api/admin/appointments/${row.id}/cancel`, {
      method: "POST",
      token: writer,
    });
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).appointment.status).toBe("CANCELLED");
    await server.drainOutbox();
    const cancellation = mailsTo(r.email).find((m) => /abgesagt/.test(m.subject));
    if (!cancellation) throw new Error("no cancellation mail");
    expect(inviteOf(cancellation)).toMatchObject({ method: "CANCEL", sequence: 2 });
    expect(audited("appointment-cancelled").map((e) => e.target)).toEqual([`Termin ${row.id}`]);
    // Cancelled is cancelled: a second try and a move answer 409.
    const again = await server.fetch(`/api/admin/appointments/${row.id}/cancel`, {
      method: "POST",
      token: writer,
    });
    expect(again.status).toBe(409);
    const late = await server.fetch(path, {
      method: "POST",
      token: writer,
      json: { startTime: berlinTime(day, 15, 0).toISOString() },
    });
    expect(late.status).toBe(409);
  });

  it("a move into a taken slot is answered in the Sie form (not the visitor's du)", async () => {
    const day = await weekdayNo(5);
    const first = await book(newRequest().id, berlinTime(day, 9, 0));
    await book(newRequest().id, berlinTime(day, 11, 0));
    const res = await server.fetch(`/api/admin/appointments/${first.id}/reschedule`, {
      method: "POST",
      token,
      json: { startTime: berlinTime(day, 11, 0).toISOString() },
    });
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: string };
    // Not the visitor's "Dieser Termin wurde gerade vergeben. Bitte wähle eine andere Uhrzeit – …"
    expect(error).not.toMatch(/\bwähle\b|\bdu\b|\bdein/);
  });
});

describe("the booking being moved blocks nothing around it", () => {
  it("with buffers: one step later is offered and bookable (manage page, admin page, API)", async () => {
    const day = await weekdayNo(1);
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      scheduling: {
        ...DEFAULT_CONFIGURATION.scheduling,
        bufferBeforeMinutes: 30,
        bufferAfterMinutes: 30,
      },
    });
    const r = newRequest();
    const row = await book(r.id, berlinTime(day, 10, 0));
    const own = berlinTime(day, 10, 0).toISOString();
    const next = berlinTime(day, 10, 30).toISOString();
    // Others still see the booking with its buffers.
    const publicSlots = await server.fetch("/api/calcom/available-slots", {
      method: "POST",
      json: { startDate: day, day },
    });
    const offered = ((await publicSlots.json()).slots as { time: string }[]).map((s) => s.time);
    expect(offered).not.toContain(next);

    const manage = await server.fetch(
      `/termin/verwalten?${new URLSearchParams({ token: manageToken(row), schritt: "verschieben", monat: day.slice(0, 7), tag: day })}`,
    );
    expect(manage.status).toBe(200);
    const visitorTimes = slotTimesOf(await manage.text());
    expect(visitorTimes).toContain(next);
    expect(visitorTimes).toContain(berlinTime(day, 9, 30).toISOString());
    // Its own time is no choice.
    expect(visitorTimes).not.toContain(own);

    const page = await server.fetch(
      `/admin/appointments/${row.id}/verschieben?${new URLSearchParams({ monat: day.slice(0, 7), tag: day })}`,
      { headers: { cookie } },
    );
    expect(page.status).toBe(200);
    const adminTimes = slotTimesOf(await page.text());
    expect(adminTimes).toContain(next);
    expect(adminTimes).not.toContain(own);

    // The move's guard (one immediate transaction) leaves it out too.
    const moved = await server.fetch(`/api/admin/appointments/${row.id}/reschedule`, {
      method: "POST",
      token,
      json: { startTime: next },
    });
    expect(moved.status).toBe(200);
    saveConfiguration(DEFAULT_CONFIGURATION);
  });

  it("with a daily maximum of 1: the booking's own day still offers the other times", async () => {
    const day = await weekdayNo(2);
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      scheduling: { ...DEFAULT_CONFIGURATION.scheduling, maxPerDay: 1 },
    });
    const row = await book(newRequest().id, berlinTime(day, 9, 0));
    const manage = await server.fetch(
      `/termin/verwalten?${new URLSearchParams({ token: manageToken(row), schritt: "verschieben", monat: day.slice(0, 7), tag: day })}`,
    );
    const times = slotTimesOf(await manage.text());
    expect(times).toHaveLength(15);
    // The no-JS admin form: a move on the same day, back onto the card with a toast.
    const to = berlinTime(day, 16, 0).toISOString();
    const posted = await postForm(
      `/admin/appointments/${row.id}/verschieben?zurueck=${encodeURIComponent("/admin/appointments?sort=next")}`,
      { startTime: to },
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`/admin/appointments?sort=next#termin-${row.id}`);
    expect(
      db().select().from(appointments).where(eq(appointments.id, row.id)).get()?.startTime,
    ).toEqual(new Date(to));
    saveConfiguration(DEFAULT_CONFIGURATION);
  });
});

describe("the card's cancel form (no JS)", () => {
  it("cancels, mails the visitor and lands on the card", async () => {
    const r = newRequest();
    const row = await book(r.id, berlinTime(await weekdayNo(3), 11, 0));
    await server.drainOutbox();
    const posted = await postForm("/admin/appointments?filter=upcoming", {
      intent: "cancel",
      id: String(row.id),
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(
      `/admin/appointments?filter=upcoming#termin-${row.id}`,
    );
    expect(db().select().from(appointments).where(eq(appointments.id, row.id)).get()?.status).toBe(
      "CANCELLED",
    );
    await server.drainOutbox();
    expect(mailsTo(r.email).some((m) => /abgesagt/.test(m.subject))).toBe(true);
  });
});

describe("a quarantined request (ADR 252)", () => {
  it("its booking's video link changes without mailing the visitor; a move and a cancel neither", async () => {
    const r = newRequest(true);
    const row = await book(r.id, berlinTime(await weekdayNo(4), 13, 0));
    const res = await server.fetch(`/api/admin/appointments/${row.id}`, {
      method: "PATCH",
      token,
      json: { videoUrl: "https://meet.example.com/quarantaene" },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).changed).toBe(true);
    const moved = await server.fetch(`/api/admin/appointments/${row.id}/reschedule`, {
      method: "POST",
      token,
      json: { startTime: berlinTime(await weekdayNo(4), 15, 0).toISOString() },
    });
    expect(moved.status).toBe(200);
    expect(
      (await server.fetch(`/api/admin/appointments/${row.id}/cancel`, { method: "POST", token }))
        .status,
    ).toBe(200);
    await server.drainOutbox();
    expect(mailsTo(r.email)).toEqual([]);
    expect(db().select().from(mailOutbox).where(eq(mailOutbox.to, r.email)).all()).toEqual([]);
  });
});
