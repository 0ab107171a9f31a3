import { z } from "zod";
import { MESSAGE_BODY_MAX } from "./request-message";

/** "Testversion liefern" (ADR 348): the form's and the API's one schema, and its messages. */
export const TRIAL_URL_MAX = 2000;

export const TRIAL_MESSAGES = {
  urlRequired: "Bitte geben Sie den Link zur Testversion ein.",
  urlNotHttps: "Bitte geben Sie eine vollständige Adresse mit https:// ein.",
  urlTooLong: `Der Link darf höchstens ${TRIAL_URL_MAX} Zeichen lang sein.`,
  messageTooLong: `Die Nachricht darf höchstens ${MESSAGE_BODY_MAX} Zeichen lang sein.`,
} as const;

/** An https address with a host, without credentials, blanks or control characters. */
export function isHttpsUrl(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\s\u0000-\u001f\u007f"<>\\^`{|}]/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const TrialSchema = z.object({
  url: z
    .string({ error: TRIAL_MESSAGES.urlRequired })
    .trim()
    .min(1, { error: TRIAL_MESSAGES.urlRequired, abort: true })
    .max(TRIAL_URL_MAX, { error: TRIAL_MESSAGES.urlTooLong, abort: true })
    .refine(isHttpsUrl, TRIAL_MESSAGES.urlNotHttps),
  message: z
    .string({ error: TRIAL_MESSAGES.messageTooLong })
    .trim()
    .max(MESSAGE_BODY_MAX, TRIAL_MESSAGES.messageTooLong)
    .optional()
    .transform((v) => v || undefined),
});
export type TrialInput = z.infer<typeof TrialSchema>;
