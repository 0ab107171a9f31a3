import { eq } from "drizzle-orm";
import { awaitsActivation } from "~/lib/admin-users";
import { admins } from "~db/schema";
import { branding } from "../branding/branding.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";

// Accounts awaiting activation (registrations from an invitation, spec §4): the admins are told
// when one arrives, the "Benutzer" tab counts them, and the invitee hears of the activation.

const usersUrl = () => `${env().APP_URL}/admin/users`;

/** The ids of the accounts that await activation ("Benutzer" names them). */
export function awaitingActivationIds(): number[] {
  return db()
    .select({
      id: admins.id,
      isActive: admins.isActive,
      activatedAt: admins.activatedAt,
      lastLogin: admins.lastLogin,
    })
    .from(admins)
    .all()
    .filter(awaitsActivation)
    .map((a) => a.id);
}

/** How many accounts await activation (the badge on the "Benutzer" tab, the dashboard's figure). */
export function countAwaitingActivation(): number {
  return awaitingActivationIds().length;
}

/**
 * One mail to every active admin: a colleague registered from an invitation and waits. Returns
 * how many were mailed: 0 without SMTP (the mails only wait in the outbox then).
 */
export function notifyAdminsOfRegistration(
  account: { username: string; email: string },
  inviter: string | null,
): number {
  const recipients = db()
    .select({ username: admins.username, email: admins.email })
    .from(admins)
    .where(eq(admins.isActive, true))
    .all();
  for (const admin of recipients) {
    queueMail({
      to: admin.email,
      subject: `Neue Registrierung: ${account.username} wartet auf Freischaltung`,
      kind: "registration-pending",
      content: {
        greeting: `Hallo ${admin.username},`,
        paragraphs: [
          `${account.username} (${account.email}) hat sich über ${inviter ? `die Einladung von ${inviter}` : "eine Einladung"} registriert.`,
          "Das Konto ist noch inaktiv. Bitte prüfen Sie es unter „Benutzer“ und schalten Sie es frei, wenn alles stimmt.",
        ],
        action: { label: "Zur Benutzerverwaltung", url: usersUrl() },
      },
    });
  }
  return mailConfigured() ? recipients.length : 0;
}

/** The invitee's mail when an admin activates an account that awaited activation. */
export function notifyAccountActivated(account: { username: string; email: string }) {
  queueMail({
    to: account.email,
    subject: "Ihr Admin-Zugang wurde freigeschaltet",
    kind: "account-activated",
    content: {
      greeting: `Hallo ${account.username},`,
      paragraphs: [
        `Ihr Admin-Zugang bei ${branding().name} wurde freigeschaltet. Sie können sich jetzt mit Ihrem Benutzernamen und Passwort anmelden.`,
      ],
      action: { label: "Zum Login", url: `${env().APP_URL}/admin/login` },
    },
  });
}

/**
 * Another admin switched this account off or on again (ADR 315: the target hears of every such
 * action). A registration that awaited activation gets `notifyAccountActivated` instead.
 */
export function notifyAccountStatus(
  account: { username: string; email: string },
  active: boolean,
  by: string,
) {
  queueMail({
    to: account.email,
    subject: active
      ? "Ihr Admin-Zugang wurde wieder aktiviert"
      : "Ihr Admin-Zugang wurde deaktiviert",
    kind: active ? "account-reactivated" : "account-deactivated",
    content: {
      greeting: `Hallo ${account.username},`,
      paragraphs: [
        active
          ? `${by} hat Ihren Admin-Zugang bei ${branding().name} wieder aktiviert. Sie können sich wieder anmelden.`
          : `${by} hat Ihren Admin-Zugang bei ${branding().name} deaktiviert; Ihre Sitzungen wurden beendet. Sie können sich nicht mehr anmelden, bis er wieder aktiviert wird.`,
        "Falls Sie das nicht erwartet haben, wenden Sie sich bitte an Ihr Team.",
      ],
    },
  });
}

/**
 * The rule "Zwei-Faktor-Anmeldung für alle Admins verlangen" was switched (ADR 315): every other
 * active admin hears of it, by whom.
 */
export function notifyTwoFactorRule(on: boolean, by: { id: number; username: string }) {
  const recipients = db()
    .select({ id: admins.id, username: admins.username, email: admins.email })
    .from(admins)
    .where(eq(admins.isActive, true))
    .all()
    .filter((a) => a.id !== by.id);
  for (const admin of recipients) {
    queueMail({
      to: admin.email,
      subject: on
        ? "Zwei-Faktor-Anmeldung für alle Admins verlangt"
        : "Zwei-Faktor-Anmeldung nicht mehr für alle Admins verlangt",
      kind: "two-factor-rule",
      content: {
        greeting: `Hallo ${admin.username},`,
        paragraphs: [
          on
            ? `${by.username} hat die Zwei-Faktor-Anmeldung für alle Admins bei ${branding().name} vorgeschrieben. Ohne zweiten Faktor werden Sie nach dem Passwort zur Einrichtung geführt.`
            : `${by.username} hat die Regel aufgehoben, nach der alle Admins bei ${branding().name} die Zwei-Faktor-Anmeldung nutzen müssen.`,
          "Falls Sie das nicht erwartet haben, wenden Sie sich bitte an Ihr Team.",
        ],
        action: { label: "Account-Einstellungen öffnen", url: `${env().APP_URL}/admin/account` },
      },
    });
  }
}
