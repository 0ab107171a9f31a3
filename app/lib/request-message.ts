import { z } from "zod";

/**
 * A message to the lead (`out`) or the lead's reply by IMAP (`in`, ADR 285), as the admin request
 * JSON carries it (ADR 273).
 */
export type RequestMessageJson = {
  id: number;
  direction: "out" | "in";
  subject: string;
  body: string;
  sentAt: string;
  /** Username of the sending admin (kept when the admin is deleted); "" for a reply. */
  admin: string;
  /** From the outbox: queued (waiting or retrying), sent, failed; a reply: received. */
  status: "queued" | "sent" | "failed" | "received";
};

export const MESSAGE_SUBJECT_MAX = 200;
export const MESSAGE_BODY_MAX = 10_000;

/** "Nachricht an den Kunden": the form's and the API's one schema. */
export const MessageSchema = z.object({
  subject: z
    .string({ error: "Bitte geben Sie einen Betreff ein." })
    .trim()
    .min(1, "Bitte geben Sie einen Betreff ein.")
    .max(
      MESSAGE_SUBJECT_MAX,
      `Der Betreff darf höchstens ${MESSAGE_SUBJECT_MAX} Zeichen lang sein.`,
    )
    // A header line: no line breaks.
    .transform((s) => s.replace(/\s+/g, " ")),
  body: z
    .string({ error: "Bitte schreiben Sie eine Nachricht." })
    .trim()
    .min(1, "Bitte schreiben Sie eine Nachricht.")
    .max(MESSAGE_BODY_MAX, `Die Nachricht darf höchstens ${MESSAGE_BODY_MAX} Zeichen lang sein.`),
});

export const MESSAGE_STATUS_LABELS: Record<RequestMessageJson["status"], string> = {
  queued: "Wird gesendet",
  sent: "Gesendet",
  failed: "Fehlgeschlagen",
  received: "Empfangen",
};
