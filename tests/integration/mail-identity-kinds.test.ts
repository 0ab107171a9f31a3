// Every kind of mail the portal sends (MAIL_KINDS, ADR 325) — triggered the way it happens in use,
// read at a real SMTP server — ends with the signature block: the reader's sign-off ("du" for
// visitors, "Sie" for admins), the brand's name and the legal details of the chosen legal form, in
// the text and the HTML part; no mail says "Anfrage-Portal" once a brand name is set. A kind added
// to the registry without being sent here fails the last test.
import { eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, describe, expect, it } from "vitest";
import { berlinTime, berlinToday, firstBookableDay } from "~/lib/booking-calendar";
import { notifyTwoFactorRule } from "~/server/accounts/activation.server";
import { deleteAdmin, setAdminActive } from "~/server/accounts/admins.server";
import { activateInvitation } from "~/server/accounts/invitations.server";
import { issueResetLink } from "~/server/accounts/reset-link.server";
import { manageToken } from "~/server/appointments/manage-link.server";
import { MAIL_KINDS, type MailKind } from "~/server/mail/kinds.server";
import { db } from "~/server/platform/db.server";
import { appointments, invitations, mailOutbox } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import type { ReceivedMail } from "../smtp-inbox";
import { apiLogin, insertAdmin, linkToken } from "./auth-helpers";
import { weekdayAfter } from "./booking-days";
import { imapStack, leadWithMessage, rfc822 } from "./imap-fixtures";
import { multipart, validFields } from "./landing-fixtures";

// Many logins, bookings and moves from one address in this file; the limits have their own tests.
process.env.LOGIN_RATE_LIMIT = "1000/15m";
process.env.BOOKING_RATE_LIMIT = "1000/1h";
afterAll(() => {
  delete process.env.LOGIN_RATE_LIMIT;
  delete process.env.BOOKING_RATE_LIMIT;
});

const s = imapStack("kennwort");

const IDENTITY = {
  companyName: "Kleinbyte Software GmbH",
  legalForm: "gmbh",
  street: "Musterstraße 1",
  postalCode: "80331",
  city: "München",
  seat: "München",
  registerCourt: "Amtsgericht München",
  registerNumber: "HRB 123456",
  managingDirectors: "Erika Muster, Max Beispiel",
  supervisoryBoardChair: null,
  vatId: "DE123456789",
  phone: "+49 89 123456",
  email: "kontakt@kleinbyte.example",
  signOffVisitor: "Bis bald – dein Team von Kleinbyte",
  signOffAdmin: "Mit freundlichen Grüßen",
};
const LEGAL = [
  "Kleinbyte Software GmbH",
  "Musterstraße 1, 80331 München",
  "Telefon: +49 89 123456 · E-Mail: kontakt@kleinbyte.example",
  "Rechtsform: GmbH · Sitz: München · Registergericht: Amtsgericht München · HRB 123456",
  "Geschäftsführer: Erika Muster, Max Beispiel",
  "USt-IdNr.: DE123456789",
];

const post = (path: string, json: unknown, token?: string) =>
  s.server.fetch(path, { method: "POST", json, token });

async function slotsOf(day: string): Promise<string[]> {
  const res = await post("/api/calcom/available-slots", { startDate: day, day });
  return ((await res.json()).slots as { time: string }[]).map((slot) => slot.time);
}

const form = (body: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: s.server.url },
  body: new URLSearchParams(body).toString(),
});

describe("every mail kind carries the agency's signature", () => {
  it("sets the brand and a GmbH's legal details", async () => {
    const res = await s.server.fetch("/api/configuration", {
      method: "PATCH",
      token: s.token,
      json: {
        branding: { name: "Kleinbyte" },
        mailIdentity: IDENTITY,
        emailNotifications: { enabled: true, bookingNotice: true },
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("visitor side: receipt, held request, booking mails, message, reply", async () => {
    // A message to a lead (and so the receipt and the team's new-request mail before it).
    const { mail } = await leadWithMessage(s, "lea.lead@example.com", "Rückfrage Lea");
    // The lead answers to the signed plus-address: the team hears of it.
    s.imap.add(
      rfc822(
        {
          From: "Lea Lead <lea.lead@example.com>",
          To: mail.replyTo[0] as string,
          Subject: "Re: Rückfrage Lea",
          "Message-ID": "<antwort-lea@example.org>",
        },
        "Drei Standorte.",
      ),
    );
    await s.server.testHooks.drainImapReplies();

    // A request without proof of work is held: the team gets the content-free notice, and the
    // daily overview when it is due.
    const held = await s.server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ email: "ohne.js@example.com" })),
    });
    expect(held.status).toBe(201);
    // Each admin's morning digest lists it (ADR 352): the next working day at 08:00 Berlin.
    const morning = berlinTime(weekdayAfter(berlinToday()), 8, 0);
    expect(s.server.testHooks.runMorningDigest(morning).queued).toBeGreaterThan(0);

    // The lead books (her browser's history cookie), an admin sets a video room, she moves it,
    // the reminder comes a day before, then she cancels.
    const booker = await s.server.fetch("/api/requests", {
      method: "POST",
      body: multipart({
        ...validFields({ email: "ben.bucher@example.com" }),
        altcha: await solvedAltcha(s.server.url),
      }),
    });
    expect(booker.status).toBe(201);
    const requestId = ((await booker.json()) as { id: number }).id;
    const cookie = (booker.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const day = weekdayAfter(weekdayAfter(firstBookableDay(1)));
    const booked = await s.server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      headers: { cookie },
      json: { requestId, startTime: (await slotsOf(day))[0], timeZone: "Europe/Berlin" },
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const appointment = () =>
      db().select().from(appointments).where(eq(appointments.requestId, requestId)).get()!;
    const video = await s.server.fetch(`/api/admin/appointments/${appointment().id}`, {
      method: "PATCH",
      token: s.token,
      json: { videoUrl: "https://meet.example.com/kleinbyte" },
    });
    expect(video.status).toBe(200);
    const moved = await s.server.fetch(
      `/termin/verwalten?token=${manageToken(appointment())}`,
      form({ intent: "reschedule", startTime: (await slotsOf(weekdayAfter(day)))[0] as string }),
    );
    expect(moved.status).toBe(302);
    const dayBefore = new Date(appointment().startTime.getTime() - 20 * 3600_000);
    await s.server.drainOutbox(dayBefore);
    const cancelled = await s.server.fetch(
      `/termin/verwalten?token=${manageToken(appointment())}`,
      form({ intent: "cancel" }),
    );
    expect(cancelled.status).toBe(302);
    await s.server.drainOutbox(dayBefore);
    // The trial version is delivered to the lead (ADR 348): a mail of its own kind.
    const trial = await post(
      `/api/admin/requests/${requestId}/trial`,
      { url: "https://demo.kleinbyte.example/ben" },
      s.token,
    );
    expect(trial.status, await trial.clone().text()).toBe(201);
    // An internal note that mentions a colleague: she is told by mail (ADR 350).
    await insertAdmin("kollegin.notiz");
    const note = await post(
      `/api/admin/requests/${requestId}/notes`,
      { body: "Bitte @kollegin.notiz die Testversion nachfassen." },
      s.token,
    );
    expect(note.status, await note.clone().text()).toBe(201);
  });

  it("admin side: test mail, invitation, registration, activation, account and login mails", async () => {
    expect((await post("/api/admin/setup-check/test-mail", {}, s.token)).status).toBe(202);

    // An invitation, the registration from it, and a second one activated directly.
    expect(
      (await post("/api/admin/invite", { email: "neu@kleinbyte.example" }, s.token)).status,
    ).toBe(201);
    await s.server.drainOutbox();
    const invitationMail = await s.smtp.waitFor("neu@kleinbyte.example", /Einladung/);
    const registered = await post("/api/admin/register", {
      invitationToken: linkToken(invitationMail.text, "/admin/register"),
      username: "neu-kollegin",
      password: "Ein-sehr-sicheres-Passwort-2026",
    });
    expect(registered.status, await registered.clone().text()).toBeLessThan(300);
    expect(
      (await post("/api/admin/invite", { email: "direkt@kleinbyte.example" }, s.token)).status,
    ).toBe(201);
    const second = db()
      .select()
      .from(invitations)
      .where(eq(invitations.email, "direkt@kleinbyte.example"))
      .get()!;
    const firstAdmin = (await (
      await s.server.fetch("/api/admin/account", { token: s.token })
    ).json()) as {
      admin?: { id: number };
      id?: number;
    };
    const actorId = firstAdmin.admin?.id ?? firstAdmin.id ?? 1;
    // Power over other admins goes through the domain functions (their forms ask for more).
    expect((await activateInvitation(second.id, actorId)).ok).toBe(true);
    const leaving = await insertAdmin("geht-bald");
    expect(deleteAdmin(actorId, leaving.id).ok).toBe(true);
    const target = await insertAdmin("reset-ziel");
    expect(issueResetLink(target.id, "Kommandozeile").ok).toBe(true);
    // Another admin's reset link goes to its owner; an account switched off and on again and a
    // switched 2FA rule are told to the admins concerned (ADR 315).
    const actor = { id: actorId, username: "admin" };
    expect(issueResetLink(target.id, actor).ok).toBe(true);
    const paused = await insertAdmin("pausiert");
    // One who has logged in before (a first activation is "account-activated").
    await apiLogin(s.server, paused.username, paused.password);
    expect(setAdminActive(actorId, paused.id, false).ok).toBe(true);
    expect(setAdminActive(actorId, paused.id, true).ok).toBe(true);
    notifyTwoFactorRule(true, actor);

    // An admin's own account: a new address (confirmation + notice), a forgotten password,
    // 2FA with new recovery codes, an API token.
    const own = await insertAdmin("eigenes-konto");
    const token = await apiLogin(s.server, own.username, own.password);
    const changed = await s.server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { email: "eigenes.neu@kleinbyte.example", currentPassword: own.password },
    });
    expect(changed.status).toBe(202);
    expect((await post("/api/admin/auth/forgot-password", { email: own.email })).status).toBe(200);
    const setup = await post("/api/admin/account/2fa/setup", { password: own.password }, token);
    const { secret } = (await setup.json()) as { secret: string };
    const code = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await post("/api/admin/account/2fa/enable", { code }, token)).status).toBe(200);
    expect(
      (await post("/api/admin/account/2fa/recovery-codes", { password: own.password }, token))
        .status,
    ).toBe(200);
    const created = await post(
      "/api/admin/api-tokens",
      { name: "Zapier", scopes: ["requests:read"], password: own.password },
      token,
    );
    expect(created.status).toBe(201);
    // The forgotten password's link, used now: the new API token dies with the old password,
    // and the owner is told (ADR 316).
    await s.server.drainOutbox();
    const forgot = await s.smtp.waitFor(own.email, /Passwort/);
    const reset = await post("/api/admin/auth/reset-password", {
      token: linkToken(forgot.text, "/admin/reset-password"),
      newPassword: "Ein-ganz-neues-Passwort-2026",
    });
    expect(reset.status, await reset.clone().text()).toBe(200);
  }, 60_000);

  it("ten wrong passwords lock an account; its owner is told", async () => {
    const locked = await insertAdmin("gesperrt");
    for (let i = 0; i < 11; i++)
      await post("/api/admin/auth/login", { username: locked.username, password: "falsch" });
    await s.server.drainOutbox();
    expect(s.smtp.mails.some((m) => m.to.includes(locked.email))).toBe(true);
  }, 60_000);

  it("each kind reached the SMTP server with the signature block, text and HTML", async () => {
    await s.server.drainOutbox();
    const sent = db()
      .select({ kind: mailOutbox.kind, to: mailOutbox.to, subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "sent"))
      .all();
    const byKind = new Map<string, ReceivedMail>();
    for (const row of sent) {
      const mail = s.smtp.mails.find(
        (m) => m.subject === row.subject && row.to.split(", ").every((to) => m.to.includes(to)),
      );
      expect(mail, `${row.kind}: ${row.subject}`).toBeDefined();
      if (!mail) continue;
      const reader = MAIL_KINDS[row.kind as MailKind];
      expect(reader, `registered kind: ${row.kind}`).toBeDefined();
      const signOff = reader === "visitor" ? IDENTITY.signOffVisitor : IDENTITY.signOffAdmin;
      expect(mail.text, row.kind).toContain(`${signOff}\nKleinbyte\n\n-- \n${LEGAL.join("\n")}`);
      expect(mail.html, row.kind).toContain(`${signOff}<br>Kleinbyte`);
      for (const line of LEGAL) expect(mail.html, `${row.kind}: ${line}`).toContain(line);
      for (const part of [mail.subject, mail.text, mail.html])
        expect(part, row.kind).not.toContain("Anfrage-Portal");
      expect(mail.from.name).toBe("Kleinbyte");
      byKind.set(row.kind, mail);
    }
    // Every kind of the registry was sent above (a new kind needs its trigger here).
    expect([...byKind.keys()].sort()).toEqual(Object.keys(MAIL_KINDS).sort());
  });
});
