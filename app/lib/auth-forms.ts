import { z } from "zod";

// Schemas of the admin account forms, shared by the pages (Conform) and their /api twins.
// Messages are the spec's exact German texts (§5); pages use the form schemas, the API the base ones.

export const MESSAGES = {
  usernameRequired: "Benutzername ist erforderlich",
  passwordRequired: "Passwort ist erforderlich",
  registerMismatch: "Passwörter stimmen nicht überein.",
  registerTooShort: "Passwort muss mindestens 12 Zeichen lang sein.",
  invitationTokenMissing: "Kein gültiger Einladungstoken vorhanden.",
  invitationInvalid: "Ungültiger oder abgelaufener Einladungslink.",
  resetTooShort: "Passwort muss mindestens 12 Zeichen lang sein",
  resetMismatch: "Passwörter stimmen nicht überein",
  resetTokenMissing: "Kein Reset-Token gefunden. Bitte fordern Sie einen neuen Reset-Link an.",
  resetTokenInvalid:
    "Der Reset-Link ist ungültig, abgelaufen oder wurde bereits verwendet. Bitte fordern Sie einen neuen Reset-Link an.",
  currentRequired: "Aktuelles Passwort ist erforderlich",
  newRequired: "Neues Passwort ist erforderlich",
  newTooShort: "Neues Passwort muss mindestens 12 Zeichen lang sein",
  confirmMismatch: "Passwort-Bestätigung stimmt nicht überein",
  /** An empty confirmation: asked for, not called a mismatch (nothing was typed to compare). */
  confirmRequired: "Bitte bestätigen Sie das neue Passwort.",
  changeSuccess: "Passwort erfolgreich geändert!",
  changeFailed: "Fehler beim Ändern des Passworts",
  wrongCurrent: "Das aktuelle Passwort ist falsch.",
  emailRequired: "E-Mail-Adresse ist erforderlich",
  emailInvalid: "Bitte geben Sie eine gültige E-Mail-Adresse ein!",
  loginFailed: "Ungültiger Benutzername oder Passwort.",
  /** The spec's text (§8) when a login with JS gets no answer within LOGIN_TIMEOUT_MS. */
  loginTimeout: "Login-Timeout: Server antwortet nicht rechtzeitig",
  loginInactive: "Ihr Konto ist deaktiviert. Bitte wenden Sie sich an einen Administrator.",
  forgotNeutral:
    "Falls ein Konto mit dieser E-Mail-Adresse existiert, wurde ein Link zum Zurücksetzen des Passworts gesendet.",
  /** The same neutral answer when no SMTP is configured: nothing is sent, so it says what to do. */
  forgotNoMail:
    "Ihre Anfrage wurde gespeichert. Da auf diesem Server kein E-Mail-Versand eingerichtet ist, wird keine E-Mail verschickt. Bitten Sie einen anderen Admin, Ihnen unter „Benutzer“ einen Passwort-Reset-Link zu erzeugen.",
} as const;

/**
 * Every new password: at least 12 characters (the schemas) and strong enough for zxcvbn (the server
 * decides, password-strength.server.ts; ADR 262). Replaces the spec's 6/6/8.
 */
export const PASSWORD_MIN_LENGTH = 12;
/** The spec's login time-out (§7, §9): a login with JS that gets no answer in time is ended. */
export const LOGIN_TIMEOUT_MS = 15_000;
export const RESET_MIN_LENGTH = PASSWORD_MIN_LENGTH;
export const REGISTER_MIN_LENGTH = PASSWORD_MIN_LENGTH;
/**
 * The rule every new password meets, as every form states it (register, change, reset): the
 * length the schemas check and the guessability zxcvbn checks on the server (ADR 263).
 */
export const PASSWORD_RULE_HINT = `Mindestens ${PASSWORD_MIN_LENGTH} Zeichen und schwer zu erraten: keine gängigen Wörter, Namen, Tastaturfolgen oder Wiederholungen wie „aaaa“.`;
export type PasswordStrength = "Stark" | "Zu kurz" | "Zu schwach";
/**
 * The indicator of the reset page: "Zu kurz" by length (the schemas' rule); beyond that only the
 * server's verdict says "Stark" or "Zu schwach" (zxcvbn, `rateNewPassword`, or the refused post) —
 * null while it is pending, so a password the server would refuse is never called "Stark".
 */
export function passwordStrength(
  password: string,
  verdict: "Stark" | "Zu schwach" | null,
): PasswordStrength | null {
  if (password.length < PASSWORD_MIN_LENGTH) return "Zu kurz";
  return verdict;
}

const required = (message: string) => z.string({ error: message }).min(1, message);

export const LoginSchema = z.object({
  username: z.string({ error: MESSAGES.usernameRequired }).trim().min(1, MESSAGES.usernameRequired),
  password: required(MESSAGES.passwordRequired),
  redirectTo: z.string().optional(),
});

/**
 * Names the audit log gives actors that are not admins (`AuditActor` in privacy/audit.server.ts):
 * an admin called "System" would sign their actions as the system's.
 */
export const RESERVED_USERNAMES = ["system", "besucher", "kommandozeile", "unbekannt"] as const;
export const isReservedUsername = (name: string) =>
  (RESERVED_USERNAMES as readonly string[]).includes(name.normalize("NFKC").toLowerCase());
/** Latin mixed with Cyrillic or Greek letters: a look-alike of another name ("аdmin" with а U+0430). */
const mixedScript = (name: string) =>
  /\p{Script=Latin}/u.test(name) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(name);

/** The username rule of registration, also for renaming one's own account. */
export const username = z
  .string({ error: MESSAGES.usernameRequired })
  .trim()
  .min(1, MESSAGES.usernameRequired)
  .min(3, "Benutzername muss mindestens 3 Zeichen lang sein.")
  .max(50, "Benutzername darf höchstens 50 Zeichen lang sein.")
  .regex(
    /^[\p{L}\p{N}._-]+$/u,
    "Benutzername darf nur Buchstaben, Ziffern, Punkt, Binde- und Unterstrich enthalten.",
  )
  .refine((name) => !isReservedUsername(name), "Dieser Benutzername ist reserviert.")
  .refine(
    (name) => !mixedScript(name),
    "Benutzername darf lateinische nicht mit kyrillischen oder griechischen Buchstaben mischen.",
  );

export const RegisterApiSchema = z.object({
  invitationToken: required(MESSAGES.invitationTokenMissing),
  username,
  password: required(MESSAGES.passwordRequired).min(REGISTER_MIN_LENGTH, MESSAGES.registerTooShort),
});
export const RegisterFormSchema = RegisterApiSchema.extend({
  confirmPassword: required("Bitte bestätigen Sie das Passwort."),
}).refine((v) => v.password === v.confirmPassword, {
  message: MESSAGES.registerMismatch,
  path: ["confirmPassword"],
});

export const EmailSchema = z.object({
  email: z
    .string({ error: MESSAGES.emailRequired })
    .trim()
    .min(1, MESSAGES.emailRequired)
    .max(254, MESSAGES.emailInvalid)
    .pipe(z.email(MESSAGES.emailInvalid)),
});
export const ForgotPasswordSchema = EmailSchema;
export const InviteSchema = EmailSchema;

export const ResetPasswordApiSchema = z.object({
  token: required(MESSAGES.resetTokenMissing),
  newPassword: required(MESSAGES.newRequired).min(RESET_MIN_LENGTH, MESSAGES.resetTooShort),
});
export const ResetPasswordFormSchema = ResetPasswordApiSchema.extend({
  confirmPassword: required("Bitte bestätigen Sie das Passwort."),
}).refine((v) => v.newPassword === v.confirmPassword, {
  message: MESSAGES.resetMismatch,
  path: ["confirmPassword"],
});

export const ChangePasswordApiSchema = z.object({
  oldPassword: required(MESSAGES.currentRequired),
  newPassword: required(MESSAGES.newRequired).min(REGISTER_MIN_LENGTH, MESSAGES.newTooShort),
});
export const ChangePasswordFormSchema = ChangePasswordApiSchema.extend({
  confirmPassword: required(MESSAGES.confirmRequired),
}).refine((v) => v.newPassword === v.confirmPassword, {
  message: MESSAGES.confirmMismatch,
  path: ["confirmPassword"],
});
