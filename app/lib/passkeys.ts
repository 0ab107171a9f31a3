import { z } from "zod";

// Passkeys (ADR 280): the schemas of their forms and calls, shared by the page and the
// /api calls, and their German messages. Registration and sign-in need the browser's WebAuthn API
// (JavaScript); password plus TOTP stays the way in without it.

/** How long a WebAuthn challenge lives (like the login's code step). */
export const PASSKEY_CHALLENGE_TTL_MINUTES = 5;
export const PASSKEY_NAME_MAX = 60;

export const PASSKEY_MESSAGES = {
  nameRequired: "Bitte geben Sie dem Passkey einen Namen.",
  nameTooLong: `Der Name darf höchstens ${PASSKEY_NAME_MAX} Zeichen lang sein.`,
  proofRequired: "Bitte geben Sie Ihr Passwort oder einen aktuellen Code ein.",
  added: (name: string) => `Der Passkey „${name}“ wurde hinzugefügt.`,
  removed: (name: string) => `Der Passkey „${name}“ wurde entfernt.`,
  notFound: "Passkey nicht gefunden.",
  registrationFailed:
    "Der Passkey konnte nicht gespeichert werden. Die Anfrage ist abgelaufen oder ungültig – bitte versuchen Sie es erneut.",
  duplicate: "Dieser Passkey ist bereits gespeichert.",
  loginFailed: "Die Anmeldung mit dem Passkey ist fehlgeschlagen. Bitte versuchen Sie es erneut.",
  loginNotAllowed:
    "Für dieses Konto ist die Anmeldung nur mit Passwort und Passkey erlaubt. Bitte melden Sie sich zuerst mit Ihrem Passwort an.",
  cancelled: "Der Passkey-Dialog wurde abgebrochen oder ist abgelaufen.",
  unsupported: "Dieser Browser unterstützt keine Passkeys.",
  loginSwitchSaved: (on: boolean) =>
    on
      ? "Sie können sich jetzt mit einem Passkey ohne Passwort anmelden."
      : "Die Anmeldung verlangt jetzt immer das Passwort; der Passkey bestätigt sie danach.",
  /** The code step of an admin with passkeys only, when the browser runs no JavaScript. */
  needsJavaScript:
    "Ihr Konto ist mit einem Passkey geschützt. Passkeys brauchen JavaScript – bitte schalten Sie es für diese Seite ein.",
  codeStepPasskey: "Bitte bestätigen Sie die Anmeldung mit Ihrem Passkey.",
} as const;

const passkeyName = z
  .string({ error: PASSKEY_MESSAGES.nameRequired })
  .trim()
  .min(1, PASSKEY_MESSAGES.nameRequired)
  .max(PASSKEY_NAME_MAX, PASSKEY_MESSAGES.nameTooLong);
const proofField = z.string().trim().max(256).optional();

/** Step-up for adding or removing a passkey: the password or a current code (either field). */
const proofGiven = (v: { password?: string; code?: string }) => Boolean(v.password || v.code);
const proofRefinement = { message: PASSKEY_MESSAGES.proofRequired, path: ["password"] };

/** `POST /api/admin/account/passkeys/options` (and the page's form): name and proof. */
export const PasskeyRegisterOptionsSchema = z
  .object({ name: passkeyName, password: proofField, code: proofField })
  .refine(proofGiven, proofRefinement);
/** `DELETE /api/admin/account/passkeys/{id}` and the page's remove form. */
export const PasskeyRemoveSchema = z
  .object({ password: proofField, code: proofField })
  .refine(proofGiven, proofRefinement);

/** A WebAuthn response as the browser library hands it over (checked in depth by the server). */
export const WebAuthnResponseSchema = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
    authenticatorAttachment: z.string().optional(),
  })
  .loose();

export const PasskeyRegisterVerifySchema = z.object({ response: WebAuthnResponseSchema });

/** `POST /api/admin/auth/passkey/options`: with the password step's challenge, the second step. */
export const PasskeyLoginOptionsSchema = z.object({
  challenge: z.string().min(1).max(200).optional(),
});

/** `POST /api/admin/auth/passkey/verify`: the assertion (and the password step's challenge). */
export const PasskeyLoginVerifySchema = z.object({
  challenge: z.string().min(1).max(200).optional(),
  response: WebAuthnResponseSchema,
});
