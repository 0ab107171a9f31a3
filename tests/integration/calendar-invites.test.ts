import { and, eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, firstBookableDay } from "~/lib/booking-calendar";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { HONEYPOT_FIELD } from "~/lib/honeypot";
import { queueReminder } from "~/server/appointments/mails.server";
import { manageToken } from "~/server/appointments/manage-link.server";
import { applyManageForm } from "~/server/appointments/self-service.server";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { appointments, mailOutbox, requests, webhookDeliveries } from "~db/schema";
import { type ReceivedMail, startSmtpInbox } from "../smtp-inbox";
import { weekdayFrom } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    MAIL_FROM: "Demo-Team <team@example.com>",
    // Many moves from one address in this file; the limit itself is tested in booking tests.
    BOOKING_RATE_LIMIT: "1000/1h",
  });
  token = await server.adminToken();
  // Notifications on for new requests, the booking notice left at its default (off).
  saveConfiguration({
    ...DEFAULT_CONFIGURATION,
    emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["team@example.com"] },
  });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

/** The next `count` weekdays from the first bookable day (default lead time: 1 day). */
function weekdays(count: number): string[] {
  const days: string[] = [];
  let day = firstBookableDay(1);
  while (days.length < count) {
    const d = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (d !== 0 && d !== 6) days.push(day);
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
  }
  return days;
}

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

async function bookFor(email: string, startTime: string) {
  const r = db()
    .insert(requests)
    .values({
      name: "Ida Invite",
      email,
      phone: "+49 30 123456",
      companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
      description: "App",
    })
    .returning()
    .get();
  const res = await server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    token,
    json: { requestId: r.id, startTime, timeZone: "Europe/Berlin" },
  });
  expect(res.status).toBe(201);
  const appointment = db()
    .select()
    .from(appointments)
    .where(eq(appointments.requestId, r.id))
    .get();
  if (!appointment) throw new Error("no appointment row");
  return { requestId: r.id, appointment };
}

function parseInvite(mail: ReceivedMail) {
  const part = mail.attachments.find((a) => a.mimeType === "text/calendar");
  if (!part) throw new Error(`no calendar part in "${mail.subject}"`);
  const calendar = new ICAL.Component(ICAL.parse(part.content));
  const vevent = calendar.getFirstSubcomponent("vevent");
  if (!vevent) throw new Error("no VEVENT");
  const event = new ICAL.Event(vevent);
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    startIsUtc: event.startDate.zone?.tzid === "UTC",
    organizer: String(event.organizer),
    location: event.location,
    status: vevent.getFirstPropertyValue("status"),
  };
}

const linkIn = (mail: ReceivedMail) => {
  const found = mail.text.match(/https?:\/\/\S+\/termin\/verwalten\?token=[\w.-]+/);
  if (!found) throw new Error(`no manage link in "${mail.subject}"`);
  return new URL(found[0]);
};
const mailsTo = (to: string, subject: RegExp) =>
  inbox.mails.filter((m) => m.to.includes(to) && subject.test(m.subject));
const reminders = (appointmentId: number) =>
  db()
    .select()
    .from(mailOutbox)
    .where(
      and(eq(mailOutbox.appointmentId, appointmentId), eq(mailOutbox.kind, "booking-reminder")),
    )
    .all();

function postForm(url: URL, fields: Record<string, string>) {
  return server.fetch(`${url.pathname}${url.search}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("calendar invite, reminder and the visitor's manage link (built-in scheduler)", () => {
  const email = "ida@example.com";
  let days: string[];
  let first: Awaited<ReturnType<typeof bookFor>>;
  let link: URL;

  it("the confirmation carries a METHOD:REQUEST invite (UTC, organiser, location, stable UID)", async () => {
    days = weekdays(3);
    const [slot] = await slotsOf(days[1] as string);
    first = await bookFor(email, slot as string);
    await server.drainOutbox();
    const [mail] = mailsTo(email, /^Dein Demo-Termin am/);
    if (!mail) throw new Error("no confirmation");
    const invite = parseInvite(mail);
    expect(invite.method).toBe("REQUEST");
    expect(invite.uid).toBe(`${first.appointment.externalUid}@anfrage-portal`);
    expect(invite.sequence).toBe(0);
    expect(invite.start).toBe(slot);
    expect(invite.startIsUtc).toBe(true);
    expect(new Date(invite.end).getTime() - new Date(invite.start).getTime()).toBe(30 * 60_000);
    expect(invite.organizer.toLowerCase()).toBe("mailto:team@example.com");
    // No promise of a mail or a link that may never come: where, until a link is set.
    expect(invite.location).toBe("Videocall");
    expect(invite.status).toBe("CONFIRMED");
    link = linkIn(mail);
    // The outbox keeps neither the link nor the file once the mail is out.
    const stored = db()
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.appointmentId, first.appointment.id),
          eq(mailOutbox.kind, "booking-confirmation"),
        ),
      )
      .get();
    expect(stored?.status).toBe("sent");
    expect(stored?.attachments).toBeNull();
    expect(stored?.text).not.toContain(link.searchParams.get("token"));
  });

  it("queues the reminder 24 h before as a durable outbox row, sent only when due", async () => {
    const [row] = reminders(first.appointment.id);
    expect(row?.status).toBe("pending");
    const due = first.appointment.startTime.getTime() - 24 * 3600_000;
    expect(row?.nextAttemptAt.getTime()).toBe(due);
    await server.drainOutbox();
    expect(mailsTo(email, /^Erinnerung/)).toHaveLength(0);
    // A fake clock one second before: still not due; at the time: sent.
    await server.drainOutbox(new Date(due - 1000));
    expect(mailsTo(email, /^Erinnerung/)).toHaveLength(0);
    await server.drainOutbox(new Date(due));
    const [reminder] = mailsTo(email, /^Erinnerung/);
    expect(reminder?.text).toContain("morgen ist es so weit");
    expect(linkIn(reminder as ReceivedMail).searchParams.get("token")).toBe(
      link.searchParams.get("token"),
    );
    expect(reminders(first.appointment.id)[0]?.status).toBe("sent");
  });

  it("a booking less than 24 h ahead gets no reminder (the confirmation has just arrived)", () => {
    const who = { id: first.requestId, name: "Ida Invite", email };
    const start = first.appointment.startTime.getTime();
    const before = reminders(first.appointment.id).length;
    // Clock 23 h before the start: the reminder time has passed, nothing is queued.
    expect(queueReminder(first.appointment, who, start - 23 * 3600_000)).toBeNull();
    expect(queueReminder(first.appointment, who, start - 24 * 3600_000)).toBeNull();
    expect(reminders(first.appointment.id)).toHaveLength(before);
  });

  it("the manage page shows the appointment; forged, expired and malformed links get a German 4xx", async () => {
    const page = await server.fetch(`${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    // Browsers apply the last policy of the list: the page's own beats the global default.
    expect(page.headers.get("referrer-policy")?.split(/,\s*/).at(-1)).toBe("same-origin");
    const html = await page.text();
    expect(html).toContain("Dein Demo-Termin");
    expect(html).toContain("Termin verschieben");

    const good = link.searchParams.get("token") as string;
    const forged = `${good.slice(0, -4)}${good.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const expired = manageToken({ ...first.appointment, startTime: new Date(Date.now() - 60_000) });
    const cases: [string, number, RegExp][] = [
      [forged, 400, /Dieser Link ist ungültig/],
      ["kaputt", 400, /Dieser Link ist ungültig/],
      ["", 400, /Dieser Link ist ungültig/],
      [expired, 410, /Dieser Link ist abgelaufen/],
    ];
    for (const [t, status, message] of cases) {
      const res = await server.fetch(`/termin/verwalten?token=${encodeURIComponent(t)}`);
      expect(res.status, t).toBe(status);
      expect(await res.text()).toMatch(message);
      const post = await postForm(new URL(`${server.url}/termin/verwalten?token=${t}`), {
        intent: "cancel",
      });
      expect(post.status, t).toBe(status);
    }
    const unchanged = db()
      .select()
      .from(appointments)
      .where(eq(appointments.id, first.appointment.id))
      .get();
    expect(unchanged?.status).toBe("ACCEPTED");
    expect(unchanged?.sequence).toBe(0);
  });

  it("rescheduling refuses the lead time and a taken slot, then moves the booking and its reminder", async () => {
    // Inside the lead time (today) → 400; a slot another request holds → 409.
    const other = await bookFor(
      "other@example.com",
      (await slotsOf(days[2] as string))[0] as string,
    );
    const tooEarly = new Date(Date.now() + 3600_000).toISOString();
    expect((await postForm(link, { intent: "reschedule", startTime: tooEarly })).status).toBe(400);
    const taken = await postForm(link, {
      intent: "reschedule",
      startTime: other.appointment.startTime.toISOString(),
    });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Dieser Termin wurde gerade vergeben");

    const newStart = (await slotsOf(days[2] as string))[0] as string;
    const moved = await postForm(link, { intent: "reschedule", startTime: newStart });
    expect(moved.status).toBe(302);
    const next = new URL(moved.headers.get("location") as string, server.url);
    expect(next.searchParams.get("erledigt")).toBe("verschoben");
    expect(next.searchParams.get("token")).not.toBe(link.searchParams.get("token"));

    // The old slot is free again, the old link outdated (page and form).
    expect(await slotsOf(days[1] as string)).toContain(first.appointment.startTime.toISOString());
    const old = await server.fetch(`${link.pathname}${link.search}`);
    expect(old.status).toBe(410);
    expect(await old.text()).toContain("nicht mehr gültig");
    expect((await postForm(link, { intent: "cancel" })).status).toBe(410);

    // ADR 255, "booking invitation mails at most one per address per hour": the confirmation went
    // out within the hour, so the move's invitation waits until that hour ends (ADR 255).
    await server.drainOutbox();
    expect(mailsTo(email, /verschoben/)).toHaveLength(0);
    const held = db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, "booking-rescheduled")))
      .get();
    if (!held) throw new Error("no held reschedule mail");
    expect(held.status).toBe("pending");
    expect(held.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(held.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
    await server.drainOutbox(held.nextAttemptAt);
    const [mail] = mailsTo(email, /verschoben/);
    if (!mail) throw new Error("no reschedule mail");
    const invite = parseInvite(mail);
    expect(invite.method).toBe("REQUEST");
    expect(invite.uid).toBe(`${first.appointment.externalUid}@anfrage-portal`);
    expect(invite.sequence).toBe(1);
    expect(invite.start).toBe(newStart);
    expect(linkIn(mail).searchParams.get("token")).toBe(next.searchParams.get("token"));
    // The sent reminder stays history; one new pending reminder for the new time.
    const pending = reminders(first.appointment.id).filter((r) => r.status === "pending");
    expect(pending).toHaveLength(1);
    expect(pending[0]?.nextAttemptAt.getTime()).toBe(new Date(newStart).getTime() - 24 * 3600_000);
    // The outbox page shows the reminder as planned, without "Erneut senden" (an early send).
    const outbox = await (await server.fetch("/admin/settings/outbox", { token })).text();
    const item = outbox.slice(outbox.indexOf("Erinnerung: Dein Demo-Termin"));
    expect(item.slice(0, item.indexOf("</li>"))).toContain("geplant für");
    expect(item.slice(0, item.indexOf("</li>"))).not.toContain("Erneut senden");
    link = next;
  });

  it("cancelling asks first, then frees the slot, drops the reminder and mails METHOD:CANCEL", async () => {
    const ask = await server.fetch(
      `${link.pathname}?${new URLSearchParams({ token: link.searchParams.get("token") as string, schritt: "absagen" })}`,
    );
    expect(ask.status).toBe(200);
    const askHtml = await ask.text();
    expect(askHtml).toContain("Möchtest du diesen Termin wirklich absagen?");
    // Exactly one honeypot field in the cancel form (a second one would shadow the first).
    expect(askHtml.split(`name="${HONEYPOT_FIELD}"`)).toHaveLength(2);

    const row = db()
      .select()
      .from(appointments)
      .where(eq(appointments.id, first.appointment.id))
      .get();
    // A filled honeypot (a bot) is refused before anything happens.
    expect((await postForm(link, { intent: "cancel", [HONEYPOT_FIELD]: "spam" })).status).toBe(400);
    const res = await postForm(link, { intent: "cancel" });
    expect(res.status).toBe(302);
    const after = new URL(res.headers.get("location") as string, server.url);
    const done = await server.fetch(`${after.pathname}${after.search}`);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Dein Termin wurde abgesagt.");

    expect(await slotsOf(days[2] as string)).toContain(row?.startTime.toISOString());
    expect(reminders(first.appointment.id).filter((r) => r.status === "pending")).toHaveLength(0);
    await server.drainOutbox();
    const [mail] = mailsTo(email, /abgesagt/);
    if (!mail) throw new Error("no cancellation mail");
    const invite = parseInvite(mail);
    expect(invite.method).toBe("CANCEL");
    expect(invite.uid).toBe(`${first.appointment.externalUid}@anfrage-portal`);
    expect(invite.sequence).toBe(2);
    expect(invite.status).toBe("CANCELLED");
    // An older link now says the appointment is cancelled; a second cancel is refused.
    const old = await server.fetch(`${link.pathname}${link.search}`);
    expect(old.status).toBe(410);
    expect(await old.text()).toContain("bereits abgesagt");
    expect((await postForm(after, { intent: "cancel" })).status).toBe(409);
    // Booking notice off (default): the team heard of none of it.
    expect(
      inbox.mails.filter((m) => m.to.includes("team@example.com") && /Demo-Termin/.test(m.subject)),
    ).toHaveLength(0);
  });

  it("with the booking notice on, admins hear of a cancellation", async () => {
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      emailNotifications: {
        enabled: true,
        bookingNotice: true,
        adminEmails: [],
        externalEmails: ["team@example.com"],
      },
    });
    const [slot] = await slotsOf(days[0] as string);
    const booked = await bookFor("notice@example.com", slot as string);
    await server.drainOutbox();
    const mail = await inbox.waitFor("notice@example.com", /^Dein Demo-Termin am/);
    const res = await postForm(linkIn(mail), { intent: "cancel" });
    expect(res.status).toBe(302);
    await server.drainOutbox();
    const notice = await inbox.waitFor("team@example.com", /^Demo-Termin abgesagt/);
    expect(notice.text).toContain("Ida Invite hat den Demo-Termin abgesagt.");
    expect(
      db().select().from(appointments).where(eq(appointments.id, booked.appointment.id)).get()
        ?.status,
    ).toBe("CANCELLED");
  });

  it("an admin cancels through the API with the same function: visitor mail, reminder gone, 409 twice", async () => {
    const [, slot] = await slotsOf(days[0] as string);
    const booked = await bookFor("admin-cancel@example.com", slot as string);
    expect(reminders(booked.appointment.id).filter((r) => r.status === "pending")).toHaveLength(1);
    const path = `/api/admin/appointments/${booked.appointment.id}/cancel`;
    expect((await server.fetch(path, { method: "POST" })).status).toBe(401);
    const res = await server.fetch(path, { method: "POST", token });
    expect(res.status).toBe(200);
    expect((await res.json()).appointment.status).toBe("CANCELLED");
    expect(reminders(booked.appointment.id).filter((r) => r.status === "pending")).toHaveLength(0);
    await server.drainOutbox();
    const mail = await inbox.waitFor("admin-cancel@example.com", /abgesagt/);
    expect(parseInvite(mail).method).toBe("CANCEL");
    expect((await server.fetch(path, { method: "POST", token })).status).toBe(409);
    expect(
      (await server.fetch("/api/admin/appointments/999999/cancel", { method: "POST", token }))
        .status,
    ).toBe(404);
  });

  it("the visitor's reschedule and cancel announce webhooks like every other path", async () => {
    const patched = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: {
        webhooks: [
          {
            id: "crm",
            // Nothing listens there: only the queued deliveries are checked.
            url: "http://127.0.0.1:5799/hook",
            events: ["appointment.booked", "appointment.cancelled"],
            secret: "geheim-0123456789-abcdef",
          },
        ],
      },
    });
    expect(patched.status).toBe(200);
    const [slot, later] = await slotsOf(days[0] as string);
    const booked = await bookFor("hooks@example.com", slot as string);
    await server.drainOutbox();
    const link = linkIn(await inbox.waitFor("hooks@example.com", /^Dein Demo-Termin am/));
    const moved = await postForm(link, { intent: "reschedule", startTime: later as string });
    expect(moved.status).toBe(302);
    const next = new URL(moved.headers.get("location") as string, server.url);
    expect((await postForm(next, { intent: "cancel" })).status).toBe(302);
    const id = booked.appointment.id;
    const keys = db()
      .select({ key: webhookDeliveries.eventKey })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, "crm"))
      .all()
      .map((r) => r.key)
      .filter((k) => k.endsWith(`:${id}`) || k.includes(`:${id}:`));
    expect(keys.sort()).toEqual([
      `appointment.booked:${id}`,
      `appointment.booked:${id}:1`,
      `appointment.cancelled:${id}`,
    ]);
  });
});

describe("the visitor's manage link under concurrency and abuse", () => {
  it("two parallel reschedules with the same link: exactly one moves the booking, the other gets 410", async () => {
    const [day] = weekdays(3).slice(2);
    const [slot, a, b] = await slotsOf(day as string);
    const booked = await bookFor("race@example.com", slot as string);
    const link = new URL(`${server.url}/termin/verwalten?token=${manageToken(booked.appointment)}`);
    const results = await Promise.all([
      postForm(link, { intent: "reschedule", startTime: a as string }),
      postForm(link, { intent: "reschedule", startTime: b as string }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([302, 410]);
    const row = db()
      .select()
      .from(appointments)
      .where(eq(appointments.id, booked.appointment.id))
      .get();
    expect(row?.sequence).toBe(1);
  });

  it("both changes checked before either writes (the race forced): the later one gets 410", async () => {
    const [day] = weekdays(3).slice(2);
    const [slot, a, b] = await slotsOf(day as string);
    const booked = await bookFor("race-forced@example.com", slot as string);
    const t = manageToken(booked.appointment);
    const form = (startTime: string) => {
      const f = new FormData();
      f.set("intent", "reschedule");
      f.set("startTime", startTime);
      return f;
    };
    // Both calls check the token synchronously, then wait for the rate limiter: the second
    // change runs against a booking the first one has already moved.
    const statusOf = (r: unknown) =>
      r instanceof Response
        ? r.status
        : ((r as { init?: { status?: number } }).init?.status ?? 200);
    const results = await Promise.all([
      applyManageForm(t, form(a as string), "203.0.113.7"),
      applyManageForm(t, form(b as string), "203.0.113.7"),
    ]);
    expect(results.map(statusOf).sort()).toEqual([302, 410]);
    const row = db()
      .select()
      .from(appointments)
      .where(eq(appointments.id, booked.appointment.id))
      .get();
    expect(row?.sequence).toBe(1);
  });

  // "Booking invitation mails at most one per address per hour": a bot that books once and then
  // moves the booking again and again must not mail the typed address at once each time.
  it("a flood of reschedules mails the typed address one invitation an hour, not one each", async () => {
    const email = "stranger@example.com";
    let day = weekdayFrom(addDays(firstBookableDay(1), 1));
    const booked = await bookFor(email, (await slotsOf(day))[0] as string);
    for (let i = 0; i < 4; i++) {
      const row = db()
        .select()
        .from(appointments)
        .where(eq(appointments.id, booked.appointment.id))
        .get();
      if (!row) throw new Error("no appointment");
      day = weekdayFrom(addDays(day, 1));
      const moved = await postForm(
        new URL(`${server.url}/termin/verwalten?token=${manageToken(row)}`),
        {
          intent: "reschedule",
          startTime: (await slotsOf(day))[0] as string,
        },
      );
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

  it("a link naming a booking that does not exist is refused like a forged one (400, no 404)", async () => {
    const unknown = manageToken({
      id: 999_999,
      sequence: 0,
      externalUid: "builtin_gibt-es-nicht",
      startTime: new Date(Date.now() + 7 * 86400_000),
    });
    const page = await server.fetch(`/termin/verwalten?token=${unknown}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Dieser Link ist ungültig");
    const post = await postForm(new URL(`${server.url}/termin/verwalten?token=${unknown}`), {
      intent: "cancel",
    });
    expect(post.status).toBe(400);
  });

  it("a reminder of a cancelled or moved booking is never sent, even when it escaped the drop", async () => {
    const [day] = weekdays(3).slice(2);
    const [slot, other] = await slotsOf(day as string);
    // Cancelled behind the reminder's back (as in a batch already under way): the sender checks.
    const gone = await bookFor("stale@example.com", slot as string);
    db()
      .update(appointments)
      .set({ status: "CANCELLED", sequence: 1 })
      .where(eq(appointments.id, gone.appointment.id))
      .run();
    // Moved behind its back: the reminder was written for the old start.
    const moved = await bookFor("moved@example.com", other as string);
    db()
      .update(appointments)
      .set({ startTime: new Date(moved.appointment.startTime.getTime() + 3600_000), sequence: 1 })
      .where(eq(appointments.id, moved.appointment.id))
      .run();
    expect(reminders(gone.appointment.id)).toHaveLength(1);
    expect(reminders(moved.appointment.id)).toHaveLength(1);
    await server.drainOutbox(new Date(Date.now() + 14 * 86400_000));
    expect(mailsTo("stale@example.com", /^Erinnerung/)).toHaveLength(0);
    expect(mailsTo("moved@example.com", /^Erinnerung/)).toHaveLength(0);
    expect(reminders(gone.appointment.id)).toHaveLength(0);
    expect(reminders(moved.appointment.id)).toHaveLength(0);
  });

  it("cancelling also drops a failed reminder (a retry would remind of a cancelled booking)", async () => {
    const [day] = weekdays(3).slice(2);
    const [slot] = await slotsOf(day as string);
    const booked = await bookFor("failed-reminder@example.com", slot as string);
    db()
      .update(mailOutbox)
      .set({ status: "failed", lastError: "SMTP weg" })
      .where(
        and(
          eq(mailOutbox.appointmentId, booked.appointment.id),
          eq(mailOutbox.kind, "booking-reminder"),
        ),
      )
      .run();
    const link = new URL(`${server.url}/termin/verwalten?token=${manageToken(booked.appointment)}`);
    expect((await postForm(link, { intent: "cancel" })).status).toBe(302);
    expect(reminders(booked.appointment.id)).toHaveLength(0);
  });

  it("moving offers and accepts slots of the booking's own length, and not while booking is off", async () => {
    const [day] = weekdays(3).slice(2);
    const [slot] = await slotsOf(day as string);
    const booked = await bookFor("long@example.com", slot as string);
    // A 45-minute booking (the configured demo has 30): its grid is 09:00, 09:45, 10:30, …
    db()
      .update(appointments)
      .set({ durationMinutes: 45 })
      .where(eq(appointments.id, booked.appointment.id))
      .run();
    const row = { ...booked.appointment, durationMinutes: 45 };
    const link = new URL(`${server.url}/termin/verwalten?token=${manageToken(row)}`);
    const picker = await server.fetch(
      `${link.pathname}?${new URLSearchParams({ token: manageToken(row), schritt: "verschieben", monat: (day as string).slice(0, 7), tag: day as string })}`,
    );
    expect(picker.status).toBe(200);
    const offered = [...(await picker.text()).matchAll(/name="startTime" value="([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    expect(offered.length).toBeGreaterThan(2);
    const minutes = offered.map((t) => {
      const [h, m] = new Intl.DateTimeFormat("de-DE", {
        timeZone: "Europe/Berlin",
        hour: "2-digit",
        minute: "2-digit",
      })
        .format(new Date(t))
        .split(":")
        .map(Number);
      return (h as number) * 60 + (m as number);
    });
    expect(minutes.every((m) => (m - 9 * 60) % 45 === 0)).toBe(true);

    const switchBooking = (appointmentEventType: string | null) =>
      server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { appointmentEventType },
      });
    expect((await switchBooking(null)).status).toBe(200);
    try {
      const off = await postForm(link, { intent: "reschedule", startTime: offered[1] as string });
      expect(off.status).toBe(404);
      expect(await off.text()).toContain("Terminbuchungen sind derzeit deaktiviert.");
    } finally {
      expect((await switchBooking("demo")).status).toBe(200);
    }
    const moved = await postForm(link, { intent: "reschedule", startTime: offered[1] as string });
    expect(moved.status).toBe(302);
  });
});
