import { eq } from "drizzle-orm";
import { awaitsActivation } from "~/lib/admin-users";
import { admins } from "~db/schema";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";

// Accounts awaiting activation (registrations from an invitation, spec §4): the admins are told
// when one arrives, the "Benutzer" tab counts them, and the invitee hears of the activation.

const usersUrl = () => `${env().APP_URL}/admin/users`;

/** How many accounts await activation (the badge on the "Benutzer" tab). */
export function countAwaitingActivation(): number {
  return db()
    .select({ isActive: admins.isActive, lastLogin: admins.lastLogin })
    .from(admins)
    .all()
    .filter((a) =>
      awaitsActivation({
        is_active: a.isActive,
        last_login: a.lastLogin ? a.lastLogin.toISOString() : null,
      }),
    ).length;
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
        "Ihr Admin-Zugang zum Anfrage-Portal wurde freigeschaltet. Sie können sich jetzt mit Ihrem Benutzernamen und Passwort anmelden.",
      ],
      action: { label: "Zum Login", url: `${env().APP_URL}/admin/login` },
    },
  });
}
