import { z } from "zod";
import { EmailSchema, username } from "./auth-forms";

// "Account-Einstellungen" (/admin/account): the own username and e-mail address. One schema for the
// page (Conform, both fields) and `PATCH /api/admin/account` (each field optional).

// A new e-mail address needs the current password (a stolen session alone must not move the account's
// recovery address); the server decides whether the address changes, so the field is optional here.
export const AccountSchema = z.object({
  username,
  email: EmailSchema.shape.email,
  currentPassword: z.string().max(256, "Das Passwort ist zu lang.").optional(),
});
export const AccountPatchSchema = AccountSchema.partial();
export type AccountPatch = z.infer<typeof AccountPatchSchema>;

/** How long the confirmation link of a new e-mail address works. */
export const EMAIL_CHANGE_TTL_HOURS = 24;

export const ACCOUNT_MESSAGES = {
  saved: "Ihre Änderungen wurden gespeichert.",
  unchanged: "Es gab nichts zu ändern.",
  usernameTaken: "Dieser Benutzername ist bereits vergeben.",
  emailTaken: "Für diese E-Mail-Adresse existiert bereits ein Admin-Konto.",
  passwordNeeded: "Bitte geben Sie Ihr aktuelles Passwort ein, um die E-Mail-Adresse zu ändern.",
  confirmSent: (email: string) =>
    `Wir haben einen Bestätigungslink an ${email} gesendet. Die neue Adresse gilt, sobald Sie den Link öffnen (${EMAIL_CHANGE_TTL_HOURS} Stunden gültig).`,
  emailConfirmed: (email: string) => `Ihre E-Mail-Adresse ist jetzt ${email}.`,
  linkInvalid:
    "Dieser Bestätigungslink ist ungültig oder wurde bereits verwendet. Bitte ändern Sie die E-Mail-Adresse erneut unter „Account-Einstellungen“.",
  linkExpired:
    "Dieser Bestätigungslink ist abgelaufen. Bitte ändern Sie die E-Mail-Adresse erneut unter „Account-Einstellungen“.",
} as const;
