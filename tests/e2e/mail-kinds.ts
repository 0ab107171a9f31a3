// Sends one mail of every kind in MAIL_KINDS (ADR 325) on this worker's stack, the way each is sent
// in use: the visitor's steps in the browser (the contact form with and without JavaScript — the
// script-free question answered —, the go-live check's test mail, a reset link on "Benutzer"), the
// rest through the public and admin API, and the few that need a clock, an inbox or power over
// another admin through the app's own server modules. Returns the mail of each kind as the SMTP
// stand-in received it.
import type { Page } from "@playwright/test";
import { generateSync } from "otplib";
import { berlinTime, berlinToday, firstBookableDay } from "~/lib/booking-calendar";
import { readAnswer } from "~/lib/script-free-challenge";
import { notifyTwoFactorRule } from "~/server/accounts/activation.server";
import { deleteAdmin, setAdminActive } from "~/server/accounts/admins.server";
import { activateInvitation } from "~/server/accounts/invitations.server";
import { issueResetLink } from "~/server/accounts/reset-link.server";
import { queueConfirmation, queueReminder } from "~/server/appointments/mails.server";
import { runMorningDigest } from "~/server/digest/digest-job.server";
import type { MailKind } from "~/server/mail/kinds.server";
import { fileReply } from "~/server/replies/file-reply.server";
import { weekdayAfter } from "../integration/booking-days";
import { signIn } from "./auth";
import { requestIdOf } from "./fidelity-helpers";
import { expect, type ReceivedMail, type SeedApi, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import {
  appointmentOf,
  forgetQuarantineMails,
  forgetScriptFreeReleases,
  invitationIdOf,
} from "./seed";
import { passStepUp } from "./step-up-helpers";

export const IDENTITY = {
  companyName: "Kleinbyte Software GmbH",
  legalForm: "gmbh" as const,
  street: "Musterstraße 1",
  postalCode: "80331",
  city: "München",
  seat: "München",
  registerCourt: "Amtsgericht München",
  registerNumber: "HRB 123456",
  managingDirectors: "Erika Muster, Max Beispiel",
  boardMembers: null,
  boardChair: null,
  supervisoryBoardChair: null,
  generalPartner: null,
  generalPartnerSeat: null,
  generalPartnerRegisterCourt: null,
  generalPartnerRegisterNumber: null,
  generalPartnerDirectors: null,
  vatId: "DE123456789",
  phone: "+49 89 123456",
  email: "kontakt@kleinbyte.example",
  signOffVisitor: "Bis bald – dein Team von Kleinbyte",
  signOffAdmin: "Mit freundlichen Grüßen",
};

export const LEGAL_LINES = [
  "Kleinbyte Software GmbH",
  "Musterstraße 1, 80331 München",
  "Telefon: +49 89 123456 · E-Mail: kontakt@kleinbyte.example",
  "Rechtsform: GmbH · Sitz: München · Registergericht: Amtsgericht München · HRB 123456",
  "Geschäftsführer: Erika Muster, Max Beispiel",
  "USt-IdNr.: DE123456789",
];

const unique = () => Math.random().toString(36).slice(2, 8);

/** The contact form in the browser: with JS the proof of work, without it the question answered. */
async function sendRequest(page: Page, email: string, javaScriptEnabled: boolean) {
  await page.goto("/");
  if (javaScriptEnabled) await waitForHydration(page);
  const cookies = page.getByRole("button", { name: "Nur notwendige" });
  if (await cookies.isVisible()) await cookies.click();
  await page.getByLabel("Name").fill("Lea Lead");
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 555 1234");
  await page.getByLabel("Beschreibe dein Unternehmen").fill("Ein Handwerksbetrieb in Köln.");
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText("Vielen Dank, Lea Lead!");
  if (!javaScriptEnabled) await answerQuestion(page);
}

/** Reads the script-free question as a person does and answers it right. */
export async function answerQuestion(page: Page) {
  const field = page.getByLabel(/^Wie viel ist /);
  const question =
    (await field.evaluate((input) => (input as HTMLInputElement).labels?.[0]?.textContent)) ?? "";
  const [, a, op, b] = /^Wie viel ist (\S+) (plus|minus) (\S+)\?$/.exec(question) ?? [];
  const x = readAnswer(a ?? "") as number;
  const y = readAnswer(b ?? "") as number;
  await field.fill(String(op === "plus" ? x + y : x - y));
  forgetScriptFreeReleases();
  await page.getByRole("button", { name: "Antwort senden" }).click();
  await expect(page.getByTestId("script-free-outcome")).toHaveText(
    "Danke! Deine Anfrage ist jetzt bei uns angekommen.",
  );
}

export async function sendEveryMailKind(
  page: Page,
  seed: SeedApi,
  javaScriptEnabled: boolean,
): Promise<Map<MailKind, ReceivedMail>> {
  const got = new Map<MailKind, ReceivedMail>();
  const wait = async (kind: MailKind, to: string, subject: RegExp) => {
    got.set(kind, await waitForMail(to, subject, 30_000));
  };
  const team = `team.${unique()}@example.com`;
  seed.configuration({
    emailNotifications: {
      enabled: true,
      bookingNotice: true,
      adminEmails: [],
      externalEmails: [team],
    },
  });
  const admin = await seed.admin();
  const login = async (who: { username: string; password: string }) => {
    const res = await page.request.post("/api/admin/auth/login", { data: who });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };
  const token = await login(admin);
  const api = (method: "post" | "patch", path: string, data: unknown, bearer = token) =>
    page.request[method](path, { data, headers: { authorization: `Bearer ${bearer}` } });

  // The visitor: the form (receipt, the team's notification), a booking and its changes.
  const lead = `lea.${unique()}@example.com`;
  await sendRequest(page, lead, javaScriptEnabled);
  const requestId = requestIdOf(lead);
  await wait("request-receipt", lead, /^Deine Anfrage ist bei uns eingegangen$/);
  await wait(
    "new-request",
    team,
    new RegExp(`^Neue Anfrage #${String(requestId).padStart(4, "0")}`),
  );
  const day = weekdayAfter(weekdayAfter(firstBookableDay(1)));
  const slots = async (d: string) =>
    (
      (
        await (
          await page.request.post("/api/calcom/available-slots", { data: { startDate: d } })
        ).json()
      ).slots as { time: string }[]
    ).map((s) => s.time);
  const booked = await page.request.post("/api/calcom/book-appointment", {
    data: { requestId, startTime: (await slots(day))[0], timeZone: "Europe/Berlin" },
  });
  expect(booked.status()).toBe(201);
  await wait("booking-confirmation", lead, /^Dein Demo-Termin am /);
  await wait("booking-notice", team, /^Neuer Demo-Termin/);
  const appointment = appointmentOf(requestId);
  expect(
    (
      await api("patch", `/api/admin/appointments/${appointment.id}`, {
        videoUrl: "https://meet.example.com/kleinbyte",
      })
    ).status(),
  ).toBe(200);
  await wait("booking-updated", lead, /^Link zum Videocall/);
  // The reminder is due a day before the start, the move's invite an hour after the last one to
  // the same mailbox (ADR 255): queued as the booking would, with their time come (to a second
  // mailbox for the move). The flows themselves: tests/integration/mail-identity-kinds.test.ts.
  const who = { id: requestId, name: "Lea Lead", email: lead };
  const current = appointmentOf(requestId);
  // A second demo of hers in two hours: its reminder was due yesterday evening.
  const soon = seed.appointment({
    name: "Demo-Termin",
    startTime: new Date(Date.now() + 2 * 3600_000),
    status: "ACCEPTED",
    requestId,
  });
  queueReminder(soon, who, soon.startTime.getTime() - 25 * 3600_000);
  await wait("booking-reminder", lead, /^Erinnerung: Dein Demo-Termin/);
  const moved = `lea.verschoben.${unique()}@example.com`;
  queueConfirmation(current, { ...who, email: moved }, "rescheduled");
  await wait("booking-rescheduled", moved, /^Dein Demo-Termin wurde verschoben/);
  expect((await api("post", `/api/admin/appointments/${current.id}/cancel`, {})).status()).toBe(
    200,
  );
  await wait("booking-cancelled", lead, /wurde abgesagt$/);

  // A message to the lead, and her reply (the IMAP poller's filing; the inbox is the stand-in's).
  const message = await api("post", `/api/admin/requests/${requestId}/messages`, {
    subject: `Rückfrage ${unique()}`,
    body: "Wie viele Standorte habt ihr?",
  });
  expect(message.status()).toBe(201);
  await wait("message", lead, /^Rückfrage /);
  // The trial version delivered to the lead (ADR 348).
  expect(
    (
      await api("post", `/api/admin/requests/${requestId}/trial`, {
        url: "https://demo.kleinbyte.example/lea",
      })
    ).status(),
  ).toBe(201);
  await wait("trial", lead, /^Deine Testversion ist da$/);
  const sent = got.get("message") as ReceivedMail;
  await fileReply({
    messageId: `<antwort.${unique()}@example.org>`,
    inReplyTo: [sent.messageId],
    from: lead,
    recipients: [],
    subject: `Re: ${sent.subject}`,
    text: "Drei Standorte.",
  });
  await wait("reply-notice", team, /^Neue Antwort zu Anfrage/);

  // Held requests: the server's notice of a new one, and the daily overview (their last send
  // forgotten first, as another spec of this worker may have had them sent today).
  forgetQuarantineMails();
  const held = await page.request.post("/api/requests", {
    multipart: {
      name: "Ohne Beweis",
      email: `ohne.${unique()}@example.com`,
      phone: "+49 30 555 0000",
      companyDescription: "Ein Versuch ohne Rechenarbeit im Browser.",
    },
  });
  expect(held.status()).toBe(201);
  await wait("quarantine-notice", team, /^Neue Anfragen warten auf Prüfung$/);
  forgetQuarantineMails();
  // The morning digest (ADR 352) of the next working day lists the held request to the admin.
  expect(runMorningDigest(berlinTime(weekdayAfter(berlinToday()), 8, 0)).failed).toBe(0);
  await wait("morning-digest", admin.email, /^Ihre Übersicht für heute: /);

  // The admins: the go-live check's test mail from the dashboard's button.
  await signIn(page, admin, { to: "/admin/dashboard" });
  await page.getByRole("button", { name: "Test-E-Mail senden" }).click();
  await wait("setup-test-mail", admin.email, /^Test-E-Mail von Kleinbyte$/);

  // An invitation and the registration from it; a second activated directly; an admin deleted;
  // a reset link from the command line.
  const invitee = `neu.${unique()}@example.com`;
  expect((await api("post", "/api/admin/invite", { email: invitee })).status()).toBe(201);
  await wait("invitation", invitee, /^Einladung in den Admin-Bereich von Kleinbyte$/);
  const invitationToken = /register\?token=([\w-]+)/.exec(got.get("invitation")?.text ?? "")?.[1];
  const registered = await page.request.post("/api/admin/register", {
    data: {
      invitationToken,
      username: `neu-${unique()}`,
      password: "Ein-sehr-sicheres-Passwort-2026",
    },
  });
  expect(registered.status()).toBeLessThan(300);
  await wait("registration-pending", admin.email, /^Neue Registrierung: /);
  const direct = `direkt.${unique()}@example.com`;
  expect((await api("post", "/api/admin/invite", { email: direct })).status()).toBe(201);
  expect((await activateInvitation(invitationIdOf(direct), admin.id)).ok).toBe(true);
  await wait("account-activated", direct, /^Ihr Admin-Zugang wurde freigeschaltet$/);
  const leaving = await seed.admin();
  expect(deleteAdmin(admin.id, leaving.id).ok).toBe(true);
  await wait("account-deleted", leaving.email, /^Ihr Admin-Zugang wurde entfernt$/);
  // A reset link another admin makes on "Benutzer" (after the step-up, ADR 315): with SMTP it goes
  // to its owner, never to the acting admin; one from the command line is announced to its owner.
  const target = await seed.admin();
  await page.goto("/admin/users");
  if (javaScriptEnabled) await waitForHydration(page);
  await page
    .getByRole("button", { name: `Passwort-Reset-Link erzeugen: ${target.username}` })
    .click();
  await passStepUp(page, admin.password);
  await wait("reset-link", target.email, /^Link zum Zurücksetzen Ihres Passworts$/);
  expect(issueResetLink(target.id, "Kommandozeile").ok).toBe(true);
  await wait("reset-link-notice", target.email, /^Ein Passwort-Reset-Link für Ihr Konto/);
  // An account switched off and on again, and the 2FA rule switched: the admins concerned hear.
  const paused = await seed.admin();
  // One who has logged in before (a first activation is "account-activated").
  await login(paused);
  expect(setAdminActive(admin.id, paused.id, false).ok).toBe(true);
  await wait("account-deactivated", paused.email, /^Ihr Admin-Zugang wurde deaktiviert$/);
  expect(setAdminActive(admin.id, paused.id, true).ok).toBe(true);
  await wait("account-reactivated", paused.email, /^Ihr Admin-Zugang wurde wieder aktiviert$/);
  notifyTwoFactorRule(true, { id: admin.id, username: admin.username });
  await wait("two-factor-rule", target.email, /^Zwei-Faktor-Anmeldung für alle Admins verlangt$/);
  // A note that mentions a colleague (ADR 350).
  expect(
    (
      await api("post", `/api/admin/requests/${requestId}/notes`, {
        body: `Bitte @${target.username} übernehmen.`,
      })
    ).status(),
  ).toBe(201);
  await wait("note-mention", target.email, /in einer Notiz zu Anfrage #\d+ erwähnt$/);

  // One admin's own account: a new address, a forgotten password, 2FA codes, an API token, a lock.
  const own = await seed.admin();
  const ownToken = await login(own);
  const newEmail = `eigen.${unique()}@example.com`;
  expect(
    (
      await api(
        "patch",
        "/api/admin/account",
        { email: newEmail, currentPassword: own.password },
        ownToken,
      )
    ).status(),
  ).toBe(202);
  await wait("account-email-confirm", newEmail, /^Bitte bestätigen Sie Ihre neue E-Mail-Adresse$/);
  await wait("account-email-notice", own.email, /^Änderung Ihrer E-Mail-Adresse angefordert$/);
  expect(
    (
      await page.request.post("/api/admin/auth/forgot-password", { data: { email: own.email } })
    ).status(),
  ).toBe(200);
  await wait("password-reset", own.email, /^Passwort zurücksetzen$/);
  const setup = await api(
    "post",
    "/api/admin/account/2fa/setup",
    { password: own.password },
    ownToken,
  );
  const { secret } = (await setup.json()) as { secret: string };
  const code = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
  expect((await api("post", "/api/admin/account/2fa/enable", { code }, ownToken)).status()).toBe(
    200,
  );
  expect(
    (
      await api(
        "post",
        "/api/admin/account/2fa/recovery-codes",
        { password: own.password },
        ownToken,
      )
    ).status(),
  ).toBe(200);
  await wait("two-factor-notice", own.email, /Wiederherstellungscodes/);
  expect(
    (
      await api(
        "post",
        "/api/admin/api-tokens",
        { name: "Zapier", scopes: ["requests:read"], password: own.password },
        ownToken,
      )
    ).status(),
  ).toBe(201);
  await wait("api-token-notice", own.email, /^Neuer API-Zugang erstellt$/);
  // The forgotten password's link, used now: the new API token dies with the old password, and
  // the owner is told (ADR 316).
  const resetToken = /reset-password\?token=([\w%-]+)/.exec(
    got.get("password-reset")?.text ?? "",
  )?.[1];
  expect(
    (
      await page.request.post("/api/admin/auth/reset-password", {
        data: {
          token: decodeURIComponent(resetToken ?? ""),
          newPassword: "Ein-ganz-neues-Passwort-2026",
        },
      })
    ).status(),
  ).toBe(200);
  await wait("password-reset-notice", own.email, /^Ihr Passwort wurde zurückgesetzt$/);
  const locked = await seed.admin();
  for (let i = 0; i < 11; i++)
    await page.request.post("/api/admin/auth/login", {
      data: { username: locked.username, password: "falsch" },
    });
  await wait("login-locked", locked.email, /^Anmeldung vorübergehend gesperrt$/);
  return got;
}
