import { and, eq, isNull } from "drizzle-orm";
import { MESSAGES, PASSWORD_MIN_LENGTH, type PasswordStrength } from "~/lib/auth-forms";
import { clientKey } from "~/lib/client-key";
import { admins, passwordResets, sessions } from "~db/schema";
import { branding } from "../branding/branding.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { hashPassword } from "../platform/crypto.server";
import { db, transaction } from "../platform/db.server";
import { env } from "../platform/env.server";
import { usableToken } from "../platform/link-token.server";
import { consumeAll, passwordStrengthLimiter, withNetwork } from "../platform/rate-limit.server";
import { type Failure, failure, type Result } from "../platform/result.server";
import { audit } from "../privacy/audit.server";
import { revokeAccessKeys, revokedAny, revokedKeysLines } from "./access-keys.server";
import { findAdminByEmail, getAdminById } from "./admins.server";
import { clearLoginLock, forgotKeys } from "./login-lock.server";
import { weakPassword, weakPasswordMessage } from "./password-strength.server";
import { createResetToken, resetUrl } from "./reset-token.server";

/**
 * Forgot password: always the same neutral answer; a mail only when an admin has this address.
 * Rate-limited per client, per network (ADR 357) and per client + address (every request counts).
 */
export async function requestPasswordReset(
  email: string,
  ip: string,
): Promise<{ ok: true; message: string } | (Failure & { retryAfterSeconds: number })> {
  const state = await consumeAll(forgotKeys(ip, email));
  if (!state.ok) return state;
  const admin = findAdminByEmail(email);
  if (admin) {
    const token = createResetToken(admin.id);
    queueMail({
      to: admin.email,
      subject: "Passwort zurücksetzen",
      kind: "password-reset",
      content: {
        greeting: `Hallo ${admin.username},`,
        paragraphs: [
          `Sie haben angefordert, das Passwort Ihres Admin-Zugangs bei ${branding().name} zurückzusetzen.`,
          "Der Link ist eine Stunde gültig und kann nur einmal verwendet werden. Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.",
        ],
        action: { label: "Neues Passwort festlegen", url: resetUrl(token) },
      },
    });
  }
  // Without SMTP the mail only waits in the outbox: the answer must not claim it was sent.
  return { ok: true, message: mailConfigured() ? MESSAGES.forgotNeutral : MESSAGES.forgotNoMail };
}

/** The admin a usable (unused, unexpired) reset token belongs to, or null. */
export function checkResetToken(token: string) {
  if (!token) return null;
  return (
    db()
      .select({ id: passwordResets.id, adminId: passwordResets.adminId })
      .from(passwordResets)
      .where(usableToken(passwordResets, token))
      .get() ?? null
  );
}

/**
 * The reset page's strength indicator (with JS, while typing): the same rule `resetPassword`
 * applies — length, then zxcvbn with the account's name and address as guessable words — so
 * "Stark" is only ever shown for a password the server takes. Only for the holder of a usable
 * reset link, and counted per client (`PASSWORD_STRENGTH_LIMIT`) and per network (ADR 357).
 */
export async function rateNewPassword(
  token: string,
  password: string,
  ip: string,
): Promise<Result<{ strength: PasswordStrength; message: string | null }>> {
  const owner = checkResetToken(token);
  if (!owner) return failure(400, MESSAGES.resetTokenInvalid);
  if (password.length < PASSWORD_MIN_LENGTH) {
    return { ok: true, strength: "Zu kurz", message: MESSAGES.resetTooShort };
  }
  const limited = await consumeAll(withNetwork(passwordStrengthLimiter(), clientKey(ip), ip));
  if (!limited.ok) return limited;
  const account = getAdminById(owner.adminId);
  const weak = await weakPasswordMessage(
    password,
    account ? [account.username, account.email] : [],
  );
  return weak
    ? { ok: true, strength: "Zu schwach", message: weak }
    : { ok: true, strength: "Stark", message: null };
}

/**
 * Sets the new password, uses the token up, ends every session of that admin, revokes its keys and
 * removes its passkeys (ADR 316, 357), and lifts its login lock (and that of `ip`, the address that
 * completed the reset).
 */
export async function resetPassword(
  token: string,
  newPassword: string,
  ip: string,
): Promise<Result<{ message: string }>> {
  if (!token) return failure(400, MESSAGES.resetTokenMissing);
  const owner = checkResetToken(token);
  if (!owner) return failure(400, MESSAGES.resetTokenInvalid);
  const account = getAdminById(owner.adminId);
  const weak = await weakPassword(
    newPassword,
    "newPassword",
    account ? [account.username, account.email] : [],
  );
  if (weak) return weak;
  const passwordHash = await hashPassword(newPassword);
  const done = transaction((tx) => {
    const now = new Date();
    const row = tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(usableToken(passwordResets, token, now))
      .returning({ adminId: passwordResets.adminId })
      .get();
    if (!row) return null;
    const account = tx
      .update(admins)
      .set({ passwordHash, passwordChanged: true })
      .where(eq(admins.id, row.adminId))
      .returning({ id: admins.id, username: admins.username, email: admins.email })
      .get();
    tx.delete(sessions).where(eq(sessions.adminId, row.adminId)).run();
    // Any other open reset links of this admin die with this one.
    tx.update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.adminId, row.adminId), isNull(passwordResets.usedAt)))
      .run();
    if (!account) return null;
    // By the link's owner (a reset is done by whoever holds the link; the link's issue is audited).
    const self = { id: account.id, username: account.username };
    audit(self, "password-reset", account.username);
    // A recovered account: whatever keys an intruder made die with the old password (ADR 316, 357) —
    // in the same transaction as the sessions, so no passkey login slips in between.
    return { ...account, revoked: revokeAccessKeys(account, self) };
  });
  if (!done) return failure(400, MESSAGES.resetTokenInvalid);
  await clearLoginLock(done, ip);
  const { revoked } = done;
  if (revokedAny(revoked)) {
    queueMail({
      to: done.email,
      subject: "Ihr Passwort wurde zurückgesetzt",
      kind: "password-reset-notice",
      content: {
        greeting: `Hallo ${done.username},`,
        paragraphs: [
          `das Passwort Ihres Admin-Zugangs bei ${branding().name} wurde soeben über einen Link zum Zurücksetzen geändert; alle Sitzungen wurden beendet.`,
          ...revokedKeysLines(revoked),
          "Falls Sie das nicht waren, wenden Sie sich bitte sofort an einen anderen Admin.",
        ],
        // Without passkeys the account page offers to add one again.
        action: revoked.passkeys.length
          ? { label: "Passkey neu einrichten", url: `${env().APP_URL}/admin/account#passkeys` }
          : undefined,
      },
    });
  }
  return {
    ok: true,
    message: "Ihr Passwort wurde erfolgreich zurückgesetzt. Sie können sich jetzt anmelden.",
  };
}
