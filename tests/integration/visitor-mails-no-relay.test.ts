// The portal is no mail relay (ADR 328): a stranger types a name with a link and a phone number and
// someone else's address; every mail the portal then sends to that address — receipt, booking
// confirmation, video-link update, reschedule, reminder, cancellation — greets with the same
// cleaned first name the receipt uses and carries nothing else the visitor typed (text, HTML and
// the calendar file). Over HTTP against the built server, read at a real SMTP server.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { firstNameOf } from "~/lib/first-name";
import { manageToken } from "~/server/appointments/manage-link.server";
import { db } from "~/server/platform/db.server";
import { appointments } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { weekdayAfter } from "./booking-days";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({ SMTP_URL: inbox.url, BOOKING_RATE_LIMIT: "100/1h" });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

/** 200 characters a spammer would like to deliver to a stranger. */
const HOSTILE_NAME =
  "Gewinn! Jetzt www.gewinn-beispiel.example besuchen oder +49 900 1234567 anrufen – nur heute: 5000 € Bonus für dich, einfach https://gewinn-beispiel.example/bonus öffnen".slice(
    0,
    200,
  );
const TYPED = ["gewinn-beispiel", "900 1234567", "Bonus", "anrufen", "besuchen"];

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

describe("visitor mails carry no visitor-typed text", () => {
  it("every mail to the typed address greets with the cleaned first name and nothing else typed", async () => {
    const email = `fremde.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const submitted = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart({
        ...validFields({ name: HOSTILE_NAME, email }),
        altcha: await solvedAltcha(server.url),
      }),
    });
    expect(submitted.status).toBe(201);
    const requestId = ((await submitted.json()) as { id: number }).id;
    const cookie = (submitted.headers.get("set-cookie") ?? "").split(";")[0] as string;

    // Booked by the visitor's own browser (the history cookie), on a day far enough for a reminder.
    const day = weekdayAfter(weekdayAfter(firstBookableDay(1)));
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      headers: { cookie },
      json: { requestId, startTime: (await slotsOf(day))[0], timeZone: "Europe/Berlin" },
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const appointment = () =>
      db().select().from(appointments).where(eq(appointments.requestId, requestId)).get()!;

    // An admin gives the booking its own video room: the visitor gets the updated invite.
    const video = await server.fetch(`/api/admin/appointments/${appointment().id}`, {
      method: "PATCH",
      token,
      json: { videoUrl: "https://meet.example.com/demo-raum" },
    });
    expect(video.status).toBe(200);

    // The visitor moves it through the manage link, later cancels it.
    const moveTo = weekdayAfter(day);
    const moved = await server.fetch(`/termin/verwalten?token=${manageToken(appointment())}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({
        intent: "reschedule",
        startTime: (await slotsOf(moveTo))[0] as string,
      }).toString(),
    });
    expect(moved.status).toBe(302);
    // A day before the new start: the reminder (and the move's invite, held by its budget) are due.
    const dayBefore = new Date(appointment().startTime.getTime() - 20 * 3600_000);
    await server.drainOutbox(dayBefore);
    const cancelled = await server.fetch(`/termin/verwalten?token=${manageToken(appointment())}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ intent: "cancel" }).toString(),
    });
    expect(cancelled.status).toBe(302);
    await server.drainOutbox(dayBefore);

    const mails = inbox.mails.filter((m) => m.to.includes(email));
    const kinds = mails.map((m) => m.subject);
    expect(kinds, kinds.join(" | ")).toEqual(
      expect.arrayContaining([
        "Deine Anfrage ist bei uns eingegangen",
        expect.stringMatching(/^Dein Demo-Termin am /),
        expect.stringMatching(/^Link zum Videocall/),
        expect.stringMatching(/^Dein Demo-Termin wurde verschoben/),
        expect.stringMatching(/^Erinnerung: Dein Demo-Termin/),
        expect.stringMatching(/wurde abgesagt$/),
      ]),
    );
    const first = firstNameOf(HOSTILE_NAME);
    expect(first).toBe("Gewinn!");
    for (const mail of mails) {
      expect(mail.text, mail.subject).toMatch(new RegExp(`^Hallo ${first},`));
      const everything = [
        mail.subject,
        mail.text,
        mail.html,
        ...mail.attachments.map((a) => a.content),
      ].join("\n");
      for (const typed of TYPED)
        expect(everything, `${mail.subject}: ${typed}`).not.toContain(typed);
    }
  });
});
