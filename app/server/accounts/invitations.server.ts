import { randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { registrationMessage } from "~/lib/activation-notice";
import { isReservedUsername, MESSAGES } from "~/lib/auth-forms";
import { admins, invitations } from "~db/schema";
import { branding } from "../branding/branding.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { hashPassword, hashToken, randomToken } from "../platform/crypto.server";
import { db, transaction } from "../platform/db.server";
import { env } from "../platform/env.server";
import { usableToken } from "../platform/link-token.server";
import { type Failure, failure } from "../platform/result.server";
import { adminActor, audit } from "../privacy/audit.server";
import { notifyAdminsOfRegistration } from "./activation.server";
import { findAdminByEmail, getAdminById, insertAdmin, usernameTaken } from "./admins.server";
import { weakPassword } from "./password-strength.server";
import { createResetToken, resetUrl } from "./reset-token.server";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
/** The set-password link of a directly activated account lives as long as an invitation. */
const ACTIVATION_LINK_TTL_MS = INVITATION_TTL_MS;

export type InvitationView = {
  id: number;
  email: string;
  invited_by: string | null;
  invited_by_id: number | null;
  created_at: string;
  expires_at: string;
  expired: boolean;
};

export const registerUrl = (token: string) =>
  `${env().APP_URL}/admin/register?token=${encodeURIComponent(token)}`;

/** Unused invitations (expired ones too, marked, so they can be resent), newest first. */
export function listInvitations(): InvitationView[] {
  const now = Date.now();
  return db()
    .select({ invitation: invitations, inviter: admins.username })
    .from(invitations)
    .leftJoin(admins, eq(admins.id, invitations.invitedBy))
    .where(isNull(invitations.usedAt))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .all()
    .map(({ invitation, inviter }) => ({
      id: invitation.id,
      email: invitation.email,
      invited_by: inviter ?? null,
      invited_by_id: invitation.invitedBy,
      created_at: invitation.createdAt.toISOString(),
      expires_at: invitation.expiresAt.toISOString(),
      expired: invitation.expiresAt.getTime() <= now,
    }));
}

/** Unused, unexpired invitations (the dashboard's "pending invitations" card). */
export function countPendingInvitations(): number {
  return (
    db()
      .select({ n: count() })
      .from(invitations)
      .where(and(isNull(invitations.usedAt), gt(invitations.expiresAt, new Date())))
      .get()?.n ?? 0
  );
}

function sendInvitationMail(email: string, token: string, inviterName: string | undefined) {
  queueMail({
    to: email,
    subject: `Einladung in den Admin-Bereich von ${branding().name}`,
    kind: "invitation",
    content: {
      greeting: "Hallo,",
      paragraphs: [
        `${inviterName ?? "Ein Admin"} hat Sie in den Admin-Bereich von ${branding().name} eingeladen.`,
        "Über den folgenden Link legen Sie Benutzername und Passwort fest. Der Link ist 7 Tage gültig. Nach der Registrierung schaltet ein Admin Ihr Konto frei.",
      ],
      action: { label: "Jetzt registrieren", url: registerUrl(token) },
    },
  });
}

/** Invites an address (a pending invitation of the same address is replaced). */
/**
 * How the invitation reaches the invitee: mailed, or — without SMTP — only as the link shown once
 * to the inviting admin (no mail leaves the outbox).
 */
export type InvitationDelivery = { mailed: boolean; link: string };
const delivery = (token: string): InvitationDelivery => ({
  mailed: mailConfigured(),
  link: registerUrl(token),
});

/**
 * What an invite or resend answer says (page and API alike): "gesendet" only when a mail really
 * leaves; without SMTP, that none was sent and that the link must be passed on by hand.
 */
export function invitationMessage(
  email: string,
  { mailed }: InvitationDelivery,
  resent = false,
): string {
  if (mailed) {
    return resent
      ? "Einladung erneut gesendet. Der alte Link ist ungültig."
      : `Einladung an ${email} gesendet.`;
  }
  return `${resent ? "Neuer Einladungslink" : "Einladung"} für ${email} erstellt${resent ? ", der alte Link ist ungültig" : ""}. Es wurde keine E-Mail versendet: Für den Mailversand ist kein SMTP-Server eingerichtet. Geben Sie den Einladungslink selbst weiter (7 Tage gültig).`;
}

export function createInvitation(
  email: string,
  invitedBy: number,
): ({ ok: true; token: string; invitation: InvitationView } & InvitationDelivery) | Failure {
  const address = email.trim().toLowerCase();
  if (findAdminByEmail(address)) {
    return failure(409, "Für diese E-Mail-Adresse existiert bereits ein Admin-Konto.", "email");
  }
  const token = randomToken();
  const id = transaction((tx) => {
    tx.delete(invitations)
      .where(and(sql`lower(${invitations.email}) = ${address}`, isNull(invitations.usedAt)))
      .run();
    return tx
      .insert(invitations)
      .values({
        email: address,
        tokenHash: hashToken(token),
        invitedBy,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      })
      .returning({ id: invitations.id })
      .get().id;
  });
  sendInvitationMail(address, token, getAdminById(invitedBy)?.username);
  audit(adminActor(invitedBy), "invitation-sent", `Einladung #${id}`);
  const invitation = listInvitations().find((i) => i.id === id);
  if (!invitation) return failure(500, MESSAGES.changeFailed);
  return { ok: true, token, invitation, ...delivery(token) };
}

/** The unused, unexpired invitation behind a raw token, or null. */
export function findValidInvitation(token: string | null | undefined) {
  if (!token) return null;
  return db().select().from(invitations).where(usableToken(invitations, token)).get() ?? null;
}

function pending(id: number) {
  return db()
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), isNull(invitations.usedAt)))
    .get();
}

const notFound = failure(404, "Einladung nicht gefunden.");

/** New token and a fresh 7 days; the old link stops working. */
export function resendInvitation(
  id: number,
  actorId: number,
): ({ ok: true; token: string; email: string } & InvitationDelivery) | Failure {
  const row = pending(id);
  if (!row) return notFound;
  const token = randomToken();
  db()
    .update(invitations)
    .set({ tokenHash: hashToken(token), expiresAt: new Date(Date.now() + INVITATION_TTL_MS) })
    .where(eq(invitations.id, id))
    .run();
  sendInvitationMail(row.email, token, getAdminById(actorId)?.username);
  audit(adminActor(actorId), "invitation-resent", `Einladung #${id}`);
  return { ok: true, token, email: row.email, ...delivery(token) };
}

export function deleteInvitation(id: number, actorId?: number): { ok: true } | Failure {
  const changes = db().delete(invitations).where(eq(invitations.id, id)).run().changes;
  if (!changes) return notFound;
  audit(actorId ? adminActor(actorId) : "System", "invitation-revoked", `Einladung #${id}`);
  return { ok: true };
}

function usernameFromEmail(email: string) {
  const base =
    (email.split("@")[0] ?? "")
      .normalize("NFKD")
      .replace(/[^\w.-]/g, "")
      .toLowerCase()
      .slice(0, 40) || "admin";
  // A name the audit log gives its job actors ("system@…") is never derived either.
  let candidate = base.length >= 3 && !isReservedUsername(base) ? base : `${base}-admin`;
  for (let n = 2; usernameTaken(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/**
 * Activates an invitation directly: an active account with a generated username and password
 * (shown once to the acting admin); the invitee gets a set-password link, never the password.
 */
export async function activateInvitation(
  id: number,
  actorId: number,
): Promise<
  { ok: true; adminData: { username: string; password: string; email: string } } | Failure
> {
  const row = pending(id);
  if (!row) return notFound;
  if (findAdminByEmail(row.email)) {
    return failure(409, "Für diese E-Mail-Adresse existiert bereits ein Admin-Konto.");
  }
  const username = usernameFromEmail(row.email);
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password);
  const admin = transaction((tx) => {
    const used = tx
      .update(invitations)
      .set({ usedAt: new Date() })
      .where(and(eq(invitations.id, id), isNull(invitations.usedAt)))
      .run().changes;
    if (!used) return null;
    return insertAdmin(tx, {
      username,
      email: row.email,
      passwordHash,
      isActive: true,
      passwordChanged: false,
    });
  });
  if (!admin) return notFound;
  audit(adminActor(actorId), "account-activated", admin.username, { einladung: id });
  const token = createResetToken(admin.id, ACTIVATION_LINK_TTL_MS);
  const actor = getAdminById(actorId);
  queueMail({
    to: admin.email,
    subject: "Ihr Admin-Zugang wurde freigeschaltet",
    kind: "account-activated",
    content: {
      greeting: "Hallo,",
      paragraphs: [
        `${actor?.username ?? "Ein Admin"} hat Ihren Admin-Zugang bei ${branding().name} direkt freigeschaltet.`,
        `Ihr Benutzername lautet: ${admin.username}`,
        "Bitte legen Sie über den folgenden Link Ihr eigenes Passwort fest (7 Tage gültig, einmal verwendbar).",
      ],
      action: { label: "Passwort festlegen", url: resetUrl(token) },
    },
  });
  return { ok: true, adminData: { username, password, email: admin.email } };
}

/**
 * Registration from an invitation: the account is created inactive (awaiting activation) and the
 * invitation is used up in the same step, so a link works once; every active admin is told.
 */
export async function registerWithInvitation(input: {
  invitationToken: string;
  username: string;
  password: string;
}): Promise<{ ok: true; message: string } | Failure> {
  const invitation = findValidInvitation(input.invitationToken);
  if (!invitation) {
    return failure(400, MESSAGES.invitationInvalid, "invitationToken");
  }
  if (usernameTaken(input.username)) {
    return failure(409, "Dieser Benutzername ist bereits vergeben.", "username");
  }
  if (findAdminByEmail(invitation.email)) {
    return failure(409, "Für diese E-Mail-Adresse existiert bereits ein Admin-Konto.");
  }
  const weak = await weakPassword(input.password, "password", [input.username, invitation.email]);
  if (weak) return weak;
  const passwordHash = await hashPassword(input.password);
  const created = transaction((tx) => {
    const used = tx
      .update(invitations)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(invitations.id, invitation.id),
          isNull(invitations.usedAt),
          gt(invitations.expiresAt, new Date()),
        ),
      )
      .run().changes;
    if (!used) return null;
    return insertAdmin(tx, {
      username: input.username,
      email: invitation.email,
      passwordHash,
      isActive: false,
      passwordChanged: true,
    });
  });
  if (!created) {
    return failure(400, MESSAGES.invitationInvalid, "invitationToken");
  }
  const inviter = invitation.invitedBy ? getAdminById(invitation.invitedBy) : undefined;
  const notified = notifyAdminsOfRegistration(created, inviter?.username ?? null);
  return {
    ok: true,
    message: registrationMessage({
      mailed: mailConfigured(),
      notified,
      inviter: inviter?.isActive ? inviter.username : null,
    }),
  };
}
