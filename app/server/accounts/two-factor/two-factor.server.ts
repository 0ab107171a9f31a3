import { randomInt } from "node:crypto";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import {
  isTotpCode,
  TWO_FACTOR_MESSAGES as M,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
} from "~/lib/two-factor";
import { admins, loginChallenges, passkeys, recoveryCodes } from "~db/schema";
import { branding } from "../../branding/branding.server";
import { queueMail } from "../../mail/outbox.server";
import { hashToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import { env } from "../../platform/env.server";
import { type Failure, failure, type Result } from "../../platform/result.server";
import { type AuditActor, audit } from "../../privacy/audit.server";
import { revokeAccessKeys, revokedKeysLines } from "../access-keys.server";
import { deleteOtherSessions } from "../auth.server";
import { hasPasskeys } from "../passkeys/webauthn.server";
import { checkCodeLimited, checkPasswordLimited, isFailure } from "./step-up.server";
import {
  acceptTotpCode,
  newSecret,
  openSecret,
  otpauthUrl,
  qrSvg,
  sealSecret,
} from "./totp.server";

/**
 * The second factor of one admin (ADR 256): enrol (password → secret + QR code → a code
 * confirms → 10 recovery codes shown once), disable (password and a code), new recovery codes
 * (password or a code), and the reset for a lost phone (another admin or the command line).
 */

type AdminRow = typeof admins.$inferSelect;

const row = (adminId: number) => db().select().from(admins).where(eq(admins.id, adminId)).get();
const notFound: Failure = failure(404, "Admin nicht gefunden.");

/** Ids of the admins with a second factor: TOTP on or a passkey (the users page shows it). */
export function twoFactorAdminIds(): Set<number> {
  const rows = db()
    .select({ id: admins.id })
    .from(admins)
    .where(eq(admins.totpEnabled, true))
    .all();
  const withPasskey = db().selectDistinct({ id: passkeys.adminId }).from(passkeys).all();
  return new Set([...rows, ...withPasskey].map((r) => r.id));
}

export const recoveryCodesLeft = (adminId: number) =>
  db()
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.adminId, adminId), isNull(recoveryCodes.usedAt)))
    .get()?.n ?? 0;

/** What the "Sicherheit" section shows: on/off, a started enrolment (QR code + secret), codes left. */
export async function twoFactorStatus(adminId: number) {
  const admin = row(adminId);
  if (!admin) return { enabled: false, pending: null, recoveryCodesLeft: 0 };
  const secret = admin.totpEnabled ? null : openSecret(admin.totpSecret);
  const url = secret ? otpauthUrl(secret, admin.username) : null;
  return {
    enabled: admin.totpEnabled,
    pending: secret && url ? { secret, otpauthUrl: url, qrSvg: await qrSvg(url) } : null,
    recoveryCodesLeft: admin.totpEnabled ? recoveryCodesLeft(adminId) : 0,
  };
}

/** Starts (or restarts) an enrolment: a new secret, sealed on the admin's row, not yet in force. */
export async function startTwoFactorSetup(
  adminId: number,
  password: string,
): Promise<Result<{ secret: string; otpauthUrl: string }>> {
  const admin = row(adminId);
  if (!admin) return notFound;
  if (admin.totpEnabled) return failure(409, M.alreadyOn);
  const proven = await checkPasswordLimited(admin, password);
  if (isFailure(proven)) return proven;
  if (!proven) return failure(403, M.passwordWrong, "password");
  const { secret, otpauthUrl } = newSecret(admin.username);
  db()
    .update(admins)
    .set({ totpSecret: sealSecret(secret), totpLastStep: null })
    .where(and(eq(admins.id, adminId), eq(admins.totpEnabled, false)))
    .run();
  return { ok: true, secret, otpauthUrl };
}

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** "xxxx-xxxx-xxxx": 12 characters of a 32-letter alphabet (60 bits). */
function newRecoveryCode() {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/** Replaces the admin's recovery codes with 10 new ones (stored as SHA-256); returns them once. */
function replaceRecoveryCodes(adminId: number): string[] {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  db().transaction((tx) => {
    tx.delete(recoveryCodes).where(eq(recoveryCodes.adminId, adminId)).run();
    tx.insert(recoveryCodes)
      .values(codes.map((c) => ({ adminId, codeHash: hashToken(normalizeRecoveryCode(c)) })))
      .run();
  });
  return codes;
}

/** Confirms the started enrolment with a code: 2FA is on; the 10 recovery codes are returned once. */
export async function enableTwoFactor(
  admin: { id: number; tokenHash?: string },
  code: string,
): Promise<Result<{ recoveryCodes: string[] }>> {
  const current = row(admin.id);
  if (!current) return notFound;
  if (current.totpEnabled) return failure(409, M.alreadyOn);
  if (!openSecret(current.totpSecret)) return failure(400, M.noSetup);
  if (!(await acceptTotpCode(current, code))) return failure(400, M.codeWrong, "code");
  db().update(admins).set({ totpEnabled: true }).where(eq(admins.id, admin.id)).run();
  const codes = replaceRecoveryCodes(admin.id);
  deleteOtherSessions(admin.id, admin.tokenHash);
  audit({ id: current.id, username: current.username }, "2fa-enabled", current.username);
  return { ok: true, recoveryCodes: codes };
}

/**
 * Accepts a second factor for an admin with 2FA: a TOTP code (six digits) or an unused recovery
 * code, which is used up (audited).
 */
export async function acceptSecondFactor(
  admin: AdminRow,
  input: { code?: string; recoveryCode?: string },
): Promise<false | "totp" | "recovery"> {
  if (!admin.totpEnabled) return false;
  const recovery = input.recoveryCode ?? (input.code && !isTotpCode(input.code) ? input.code : "");
  if (recovery) return spendRecoveryCode(admin, recovery) ? "recovery" : false;
  return input.code && (await acceptTotpCode(admin, input.code)) ? "totp" : false;
}

function spendRecoveryCode(admin: AdminRow, code: string): boolean {
  const used = db()
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.adminId, admin.id),
        eq(recoveryCodes.codeHash, hashToken(normalizeRecoveryCode(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .run().changes;
  if (used !== 1) return false;
  audit({ id: admin.id, username: admin.username }, "recovery-code-used", admin.username, {
    verbleibend: recoveryCodesLeft(admin.id),
  });
  return true;
}

/** Turns 2FA off: needs the password and a code (or a recovery code). */
export async function disableTwoFactor(
  admin: { id: number; tokenHash?: string },
  password: string,
  code: string,
): Promise<Result<object>> {
  const current = row(admin.id);
  if (!current) return notFound;
  if (!current.totpEnabled) return failure(409, M.notOn);
  const passwordOk = await checkPasswordLimited(current, password);
  if (isFailure(passwordOk)) return passwordOk;
  if (!passwordOk) return failure(403, M.passwordWrong, "password");
  const codeOk = await checkCodeLimited(current.id, () => acceptSecondFactor(current, { code }));
  if (isFailure(codeOk)) return codeOk;
  if (!codeOk) return failure(400, M.codeWrong, "code");
  clearTwoFactor(admin.id);
  deleteOtherSessions(admin.id, admin.tokenHash);
  audit({ id: current.id, username: current.username }, "2fa-disabled", current.username);
  return { ok: true };
}

/** New recovery codes (the old ones die): needs the password or a current code; audited, mailed. */
export async function regenerateRecoveryCodes(
  adminId: number,
  proof: { password?: string; code?: string },
): Promise<Result<{ recoveryCodes: string[] }>> {
  const current = row(adminId);
  if (!current) return notFound;
  if (!current.totpEnabled) return failure(409, M.notOn);
  const { password, code } = proof;
  const proven = password
    ? await checkPasswordLimited(current, password)
    : code
      ? await checkCodeLimited(current.id, () => acceptSecondFactor(current, { code }))
      : false;
  if (isFailure(proven)) return proven;
  if (!proven)
    return failure(
      403,
      proof.password ? M.passwordWrong : M.codeWrong,
      proof.password ? "password" : "code",
    );
  const codes = replaceRecoveryCodes(adminId);
  audit(
    { id: current.id, username: current.username },
    "recovery-codes-regenerated",
    current.username,
  );
  tellAdmin(current, "Neue Wiederherstellungscodes erzeugt", [
    `für Ihren Admin-Zugang bei ${branding().name} wurden neue Wiederherstellungscodes erzeugt. Die bisherigen Codes gelten nicht mehr.`,
  ]);
  return { ok: true, recoveryCodes: codes };
}

function clearTwoFactor(adminId: number) {
  db()
    .update(admins)
    .set({ totpEnabled: false, totpSecret: null, totpLastStep: null })
    .where(eq(admins.id, adminId))
    .run();
  db().delete(recoveryCodes).where(eq(recoveryCodes.adminId, adminId)).run();
  db().delete(loginChallenges).where(eq(loginChallenges.adminId, adminId)).run();
}

/** A mail to the admin about a change of how they log in (2FA, recovery codes, passkeys). */
export function tellAdmin(
  admin: { username: string; email: string },
  subject: string,
  lines: string[],
) {
  queueMail({
    to: admin.email,
    subject,
    kind: "two-factor-notice",
    content: {
      greeting: `Hallo ${admin.username},`,
      paragraphs: [
        ...lines,
        "Falls Sie das nicht erwartet haben, ändern Sie bitte sofort Ihr Passwort und wenden Sie sich an einen anderen Admin.",
      ],
      action: { label: "Account-Einstellungen öffnen", url: `${env().APP_URL}/admin/account` },
    },
  });
}

/**
 * A lost phone: turns another admin's 2FA off (they log in with the password and enrol again), ends
 * their sessions, audits it and mails them. `who` is an admin id, a username or an e-mail address.
 */
export function resetTwoFactor(
  who: number | string,
  actor: AuditActor,
): Result<{ username: string; wasEnabled: boolean }> {
  const key = typeof who === "string" ? who.trim() : "";
  const target = db()
    .select()
    .from(admins)
    .where(
      typeof who === "number"
        ? eq(admins.id, who)
        : sql`lower(${admins.username}) = lower(${key}) or lower(${admins.email}) = lower(${key})`,
    )
    .get();
  if (!target) return notFound;
  // A lost phone may be the passkey too: the reset removes every second factor (ADR 280) — the
  // passkeys with the keys below, each named in the mail (ADR 357).
  const wasEnabled = target.totpEnabled || hasPasskeys(target.id);
  clearTwoFactor(target.id);
  // Nothing was on (at most a started enrolment, now gone): nothing to end, audit or tell.
  if (!wasEnabled) return { ok: true, username: target.username, wasEnabled };
  deleteOtherSessions(target.id);
  audit(actor, "2fa-reset", target.username);
  // Whoever held the lost phone may have made keys that outlive the reset (ADR 316).
  const revoked = revokeAccessKeys(target, actor);
  const by =
    typeof actor === "string" ? "über die Kommandozeile des Servers" : `von ${actor.username}`;
  tellAdmin(target, "Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt", [
    `die Zwei-Faktor-Anmeldung Ihres Admin-Zugangs bei ${branding().name} wurde ${by} zurückgesetzt. Sie melden sich jetzt nur mit Ihrem Passwort an und können die Zwei-Faktor-Anmeldung unter „Account-Einstellungen“ neu einrichten.`,
    ...revokedKeysLines(revoked),
  ]);
  return { ok: true, username: target.username, wasEnabled };
}
