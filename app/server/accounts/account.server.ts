import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { ACCOUNT_MESSAGES, type AccountPatch, EMAIL_CHANGE_TTL_HOURS } from "~/lib/account-form";
import { MESSAGES } from "~/lib/auth-forms";
import { admins } from "~db/schema";
import { branding } from "../branding/branding.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { derivedKeys } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { type Failure, failure, type Result } from "../platform/result.server";
import { audit } from "../privacy/audit.server";
import { findAdminByEmail, getAdminById, usernameTaken } from "./admins.server";
import { type AdminUser, toAdminUser } from "./auth.server";
import { checkPasswordLimited, isFailure } from "./two-factor/step-up.server";

/**
 * "My account" (ADR 226): each admin renames themself and changes their own e-mail address.
 * A new username applies at once. A new address applies at once without SMTP (nothing could
 * confirm it); with SMTP it applies when the signed link mailed to the new address is opened, and
 * the old address is told. The link is stateless: its HMAC covers the current address, so it dies
 * once the address has changed (used once) and after EMAIL_CHANGE_TTL_HOURS.
 */

export const EMAIL_CONFIRM_PATH = "/admin/account/email-confirm";

const keys = () => derivedKeys("account-email-change");

const sign = (key: Buffer, payload: string, currentEmail: string) =>
  createHmac("sha256", key).update(`${payload}|${currentEmail.toLowerCase()}`).digest();

export function emailChangeToken(
  admin: { id: number; email: string },
  newEmail: string,
  now = Date.now(),
): string {
  const expiry = Math.floor(now / 1000) + EMAIL_CHANGE_TTL_HOURS * 3600;
  const payload = Buffer.from(`${admin.id}.${expiry}.${newEmail}`).toString("base64url");
  const [key] = keys();
  return `${payload}.${sign(key as Buffer, payload, admin.email).toString("base64url")}`;
}

export const emailConfirmUrl = (token: string) =>
  `${env().APP_URL}${EMAIL_CONFIRM_PATH}?token=${token}`;

type Verified = Result<{ admin: typeof admins.$inferSelect; newEmail: string }>;

/** Checks a confirmation token (forged, used or unknown → 400; expired → 410). */
export function verifyEmailChangeToken(token: string | null, now = Date.now()): Verified {
  const invalid = failure(400, ACCOUNT_MESSAGES.linkInvalid);
  if (!token || token.length > 800) return invalid;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return invalid;
  const text = Buffer.from(payload, "base64url").toString("utf8");
  const match = /^(\d{1,15})\.(\d{1,15})\.(.+)$/.exec(text);
  if (!match) return invalid;
  const row = getAdminById(Number(match[1]));
  if (!row) return invalid;
  const given = Buffer.from(signature, "base64url");
  const genuine = keys().some((key) => {
    const expected = sign(key, payload, row.email);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!genuine) return invalid;
  if (Number(match[2]) * 1000 <= now) return failure(410, ACCOUNT_MESSAGES.linkExpired);
  return { ok: true, admin: row, newEmail: match[3] as string };
}

function tellOldAddress(row: { username: string; email: string }, newEmail: string, done: boolean) {
  queueMail({
    to: row.email,
    subject: done
      ? "Ihre E-Mail-Adresse wurde geändert"
      : "Änderung Ihrer E-Mail-Adresse angefordert",
    kind: "account-email-notice",
    content: {
      greeting: `Hallo ${row.username},`,
      paragraphs: [
        done
          ? `die E-Mail-Adresse Ihres Admin-Zugangs bei ${branding().name} ist jetzt ${newEmail}. Benachrichtigungen und Links zum Zurücksetzen des Passworts gehen ab sofort dorthin.`
          : `für Ihren Admin-Zugang bei ${branding().name} wurde die neue E-Mail-Adresse ${newEmail} angegeben. Sie gilt erst, wenn der Link in der E-Mail an diese Adresse geöffnet wird.`,
        "Falls Sie das nicht waren, ändern Sie bitte sofort Ihr Passwort und wenden Sie sich an einen anderen Admin.",
      ],
    },
  });
}

function applyEmail(row: typeof admins.$inferSelect, newEmail: string, confirmed: boolean) {
  db().update(admins).set({ email: newEmail }).where(eq(admins.id, row.id)).run();
  audit({ id: row.id, username: row.username }, "account", "Eigenes Konto", {
    changed: "email",
    confirmed,
  });
  tellOldAddress(row, newEmail, true);
}

export type AccountUpdate =
  | { ok: true; status: 200 | 202; admin: AdminUser; message: string; pendingEmail?: string }
  | Failure;

/** Applies a PATCH of the caller's own username and/or e-mail (validated by AccountPatchSchema). */
export async function updateAccount(adminId: number, patch: AccountPatch): Promise<AccountUpdate> {
  const row = getAdminById(adminId);
  if (!row) return failure(404, "Admin nicht gefunden.");
  const username = patch.username?.trim();
  const email = patch.email?.trim().toLowerCase();
  const renamed = username !== undefined && username !== row.username;
  const newEmail = email !== undefined && email !== row.email.toLowerCase() ? email : undefined;
  if (renamed && username.toLowerCase() !== row.username.toLowerCase() && usernameTaken(username)) {
    return failure(409, ACCOUNT_MESSAGES.usernameTaken, "username");
  }
  if (newEmail) {
    const owner = findAdminByEmail(newEmail);
    if (owner && owner.id !== row.id) return failure(409, ACCOUNT_MESSAGES.emailTaken, "email");
    if (!patch.currentPassword)
      return failure(400, ACCOUNT_MESSAGES.passwordNeeded, "currentPassword");
    // Counted like the login's wrong passwords (step-up.server.ts).
    const proven = await checkPasswordLimited(row, patch.currentPassword);
    if (isFailure(proven)) return proven;
    if (!proven) return failure(403, MESSAGES.wrongCurrent, "currentPassword");
  }
  let current = row;
  if (renamed) {
    current = db().update(admins).set({ username }).where(eq(admins.id, row.id)).returning().get();
    audit({ id: row.id, username: row.username }, "account", "Eigenes Konto", {
      changed: "username",
    });
  }
  if (newEmail && mailConfigured()) {
    queueMail({
      to: newEmail,
      subject: "Bitte bestätigen Sie Ihre neue E-Mail-Adresse",
      kind: "account-email-confirm",
      linksExpireAt: new Date(Date.now() + EMAIL_CHANGE_TTL_HOURS * 3600_000),
      content: {
        greeting: `Hallo ${current.username},`,
        paragraphs: [
          `Sie möchten ${newEmail} als E-Mail-Adresse Ihres Admin-Zugangs bei ${branding().name} verwenden. Bitte bestätigen Sie das über den folgenden Link (${EMAIL_CHANGE_TTL_HOURS} Stunden gültig).`,
          "Bis dahin gilt Ihre bisherige Adresse. Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.",
        ],
        action: {
          label: "E-Mail-Adresse bestätigen",
          url: emailConfirmUrl(emailChangeToken(current, newEmail)),
        },
      },
    });
    tellOldAddress(current, newEmail, false);
    return {
      ok: true,
      status: 202,
      admin: toAdminUser(current),
      message: ACCOUNT_MESSAGES.confirmSent(newEmail),
      pendingEmail: newEmail,
    };
  }
  if (newEmail) {
    applyEmail(current, newEmail, false);
    current = getAdminById(row.id) ?? current;
  }
  return {
    ok: true,
    status: 200,
    admin: toAdminUser(current),
    message: renamed || newEmail ? ACCOUNT_MESSAGES.saved : ACCOUNT_MESSAGES.unchanged,
  };
}

/** Applies a confirmed address (the link from the mail); the old address is told. */
export function confirmEmailChange(token: string | null): Result<{ email: string }> {
  const verified = verifyEmailChangeToken(token);
  if (!verified.ok) return verified;
  const owner = findAdminByEmail(verified.newEmail);
  if (owner && owner.id !== verified.admin.id) return failure(409, ACCOUNT_MESSAGES.emailTaken);
  applyEmail(verified.admin, verified.newEmail, true);
  return { ok: true, email: verified.newEmail };
}
