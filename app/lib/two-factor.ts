import { z } from "zod";

// The second factor (ADR 256): schemas of its forms, shared by the pages (Conform) and
// the /api calls, and its German messages. TOTP per RFC 6238: SHA-1, 30 s, 6 digits.

export const RECOVERY_CODE_COUNT = 10;
/** How long the step between password and code lasts. */
export const CHALLENGE_TTL_MINUTES = 5;
/** Wrong codes per admin before the code step answers 429 for 15 minutes. */
export const CODE_FAILURE_LIMIT = { points: 5, durationSeconds: 15 * 60 };

export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Bitte geben Sie den Code ein.",
  codeWrong: "Der Code ist ungültig oder wurde bereits verwendet.",
  passwordRequired: "Bitte geben Sie Ihr Passwort ein.",
  passwordWrong: "Das Passwort ist falsch.",
  challengeExpired:
    "Die Anmeldung ist abgelaufen oder wurde bereits abgeschlossen. Bitte melden Sie sich erneut an.",
  codeStep: "Bitte geben Sie den Code aus Ihrer Authenticator-App ein.",
  alreadyOn: "Die Zwei-Faktor-Anmeldung ist bereits eingeschaltet.",
  notOn: "Die Zwei-Faktor-Anmeldung ist nicht eingeschaltet.",
  noSetup: "Bitte starten Sie die Einrichtung zuerst mit Ihrem Passwort.",
  enabled:
    "Die Zwei-Faktor-Anmeldung ist eingeschaltet. Bewahren Sie die Wiederherstellungscodes sicher auf.",
  disabled: "Die Zwei-Faktor-Anmeldung ist ausgeschaltet.",
  regenerated: "Neue Wiederherstellungscodes erzeugt. Die bisherigen Codes gelten nicht mehr.",
  proofRequired: "Bitte geben Sie Ihr Passwort oder einen aktuellen Code ein.",
  enrollmentPending:
    "Bitte richten Sie zuerst die Zwei-Faktor-Anmeldung ein, bevor Sie weitere Aktionen ausführen.",
  enrollmentNotice:
    "Für alle Admins ist die Zwei-Faktor-Anmeldung vorgeschrieben. Bitte richten Sie sie jetzt ein, bevor Sie den Admin-Bereich nutzen.",
  resetDone: (username: string) =>
    `Die Zwei-Faktor-Anmeldung von ${username} wurde zurückgesetzt. ${username} wurde per E-Mail informiert.`,
  resetConfirm: (username: string) =>
    `${username} meldet sich danach nur mit dem Passwort an und richtet die Zwei-Faktor-Anmeldung neu ein. ${username} wird per E-Mail informiert.`,
  requireStepUp: (on: boolean) =>
    on
      ? "Zwei-Faktor-Anmeldung für alle Admins verlangen"
      : "Zwei-Faktor-Anmeldung nicht mehr für alle Admins verlangen",
  requireSaved: (on: boolean) =>
    on
      ? "Die Zwei-Faktor-Anmeldung ist jetzt für alle Admins vorgeschrieben."
      : "Die Zwei-Faktor-Anmeldung ist nicht mehr für alle Admins vorgeschrieben.",
} as const;

const code = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .trim()
  .min(1, TWO_FACTOR_MESSAGES.codeRequired)
  .max(64, TWO_FACTOR_MESSAGES.codeWrong);
const password = z
  .string({ error: TWO_FACTOR_MESSAGES.passwordRequired })
  .min(1, TWO_FACTOR_MESSAGES.passwordRequired)
  .max(256, "Das Passwort ist zu lang.");

/** The code step of the login page: one field for a TOTP code or a recovery code. */
export const LoginCodeSchema = z.object({
  challenge: z.string().min(1).max(200),
  code,
});

/** `POST /api/admin/auth/login/verify`: the challenge with a code or a recovery code. */
export const LoginVerifyApiSchema = z
  .object({
    challenge: z
      .string({ error: TWO_FACTOR_MESSAGES.challengeExpired })
      .min(1, TWO_FACTOR_MESSAGES.challengeExpired)
      .max(200),
    code: code.optional(),
    recoveryCode: code.optional(),
  })
  .refine((v) => v.code !== undefined || v.recoveryCode !== undefined, {
    message: TWO_FACTOR_MESSAGES.codeRequired,
    path: ["code"],
  });

export const TwoFactorSetupSchema = z.object({ password });
export const TwoFactorEnableSchema = z.object({ code });
export const TwoFactorDisableSchema = z.object({ password, code });
/** Regenerating recovery codes: the password or a current code (either field). */
export const RecoveryCodesSchema = z
  .object({ password: password.optional(), code: code.optional() })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    message: TWO_FACTOR_MESSAGES.proofRequired,
    path: ["password"],
  });

/** A TOTP code: exactly six digits (spaces typed by the user are ignored). */
export const isTotpCode = (value: string) => /^\d{6}$/.test(value.replace(/\s/g, ""));

/** Recovery codes compare without case, spaces or dashes ("abcd-efgh-ijkl" = "ABCDEFGHIJKL"). */
export const normalizeRecoveryCode = (value: string) => value.toLowerCase().replace(/[\s-]/g, "");
