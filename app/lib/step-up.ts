import { z } from "zod";

// Step-up for power over other admins (ADR 315): the acting admin proves again, with the password
// or a current code, that it is them. Valid for 5 minutes of this session. The JSON body field
// `stepUp: { password } | { code }` and the form fields `stepUp.password` / `stepUp.code` carry the
// proof; this is their one schema, the step's wire type and its German texts.

export const STEP_UP_MINUTES = 5;

export const STEP_UP_MESSAGES = {
  title: "Identität bestätigen",
  required:
    "Bitte bestätigen Sie diese Aktion mit Ihrem Passwort oder einem aktuellen Code (Feld stepUp). Die Bestätigung gilt 5 Minuten für diese Sitzung.",
  intro: (action: string, code: boolean) =>
    `Für „${action}“ geben Sie bitte noch einmal Ihr Passwort ein${code ? " – oder einen aktuellen Code aus Ihrer Authenticator-App" : ""}. Die Bestätigung gilt ${STEP_UP_MINUTES} Minuten für diese Sitzung.`,
  passwordWrong: "Das Passwort ist falsch.",
  codeWrong: "Der Code ist ungültig oder wurde bereits verwendet.",
  tokenNever: "Mit einem API-Zugang ist diese Aktion nie möglich – nur in einer Sitzung.",
  confirm: "Bestätigen",
} as const;

/** The proof: a password or a code (a TOTP code, or a recovery code). */
export const StepUpProofSchema = z
  .object({
    password: z.string().max(256, "Das Passwort ist zu lang.").optional(),
    code: z.string().trim().max(64, STEP_UP_MESSAGES.codeWrong).optional(),
  })
  .optional();
export type StepUpProof = z.infer<typeof StepUpProofSchema>;

/** A JSON body that may carry the proof beside its own fields. */
export const withStepUp = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, stepUp: StepUpProofSchema });

/** The form's proof fields (a Conform-style path, the same shape as the JSON body's). */
export const STEP_UP_FIELDS = { password: "stepUp.password", code: "stepUp.code" } as const;

/**
 * What a page action answers while the proof is missing or wrong: the server step (rendered as a
 * dialog with JavaScript, in the page without), which posts `fields` — the rest of the form —
 * again with the proof.
 */
export type StepUpStepData = {
  stepUp: {
    /** A new one for every answer: the dialog opens again after a wrong proof. */
    id: string;
    /** What is being confirmed, e.g. "2FA zurücksetzen: bert". */
    action: string;
    fields: Record<string, string>;
    /** The admin has TOTP: the code field is offered too. */
    code: boolean;
    error?: string;
    /** The field the error is about. */
    field?: "password" | "code";
  };
};

export function isStepUpStep(value: unknown): value is StepUpStepData {
  const s = (value as { stepUp?: StepUpStepData["stepUp"] } | null)?.stepUp;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.action === "string" &&
    typeof s.fields === "object" &&
    s.fields !== null
  );
}
