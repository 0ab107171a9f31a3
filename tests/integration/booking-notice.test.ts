import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { startSmtpInbox } from "../smtp-inbox";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({ SMTP_URL: inbox.url });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

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

async function book(email: string, day: string) {
  const r = db()
    .insert(requests)
    .values({
      name: "Nora Notiz",
      email,
      phone: "+49 30 123456",
      companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
      description: "App",
    })
    .returning()
    .get();
  const slots = (
    await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: day, day },
      })
    ).json()
  ).slots as { time: string }[];
  const res = await server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    token,
    json: { requestId: r.id, startTime: slots[0]?.time, timeZone: "Europe/Berlin" },
  });
  expect(res.status).toBe(201);
  await server.drainOutbox();
}

const notices = () => inbox.mails.filter((m) => m.subject.startsWith("Neuer Demo-Termin"));

describe("booking notice to admins", () => {
  it("is off by default: notifications on still mail only new requests, not bookings", async () => {
    expect(DEFAULT_CONFIGURATION.emailNotifications.bookingNotice).toBe(false);
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["team@example.com"] },
    });
    const [day] = weekdays(1);
    await book("nora-1@example.com", day as string);
    // The visitor gets the confirmation; the team gets no booking notice.
    expect(inbox.mails.some((m) => m.to.includes("nora-1@example.com"))).toBe(true);
    expect(notices()).toHaveLength(0);
  });

  it("mails the recipients when its own setting is on", async () => {
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      emailNotifications: {
        enabled: true,
        bookingNotice: true,
        adminEmails: [],
        externalEmails: ["team@example.com"],
      },
    });
    const days = weekdays(2);
    await book("nora-2@example.com", days[1] as string);
    const notice = await inbox.waitFor("team@example.com", /Neuer Demo-Termin/, 10_000);
    expect(notice.text).toContain("Nora Notiz hat einen Demo-Termin gebucht.");
  });
});
