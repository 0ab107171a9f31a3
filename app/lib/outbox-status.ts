/** Attempts of a mail or webhook delivery before it is "failed" and waits for the retry button. */
export const OUTBOX_MAX_ATTEMPTS = 8;

export type OutboxStatus = "pending" | "sent" | "failed";
export type OutboxStatusView = { label: string; tone: "waiting" | "done" | "retrying" | "failed" };

/**
 * The state of an outbox row as its collapsed line says it: a pending row that already
 * failed is not "Wartend" but retrying, with its attempt count; a failed one says how often it tried.
 */
export function outboxStatusView(
  status: OutboxStatus,
  attempts: number,
  sentLabel: string,
): OutboxStatusView {
  if (status === "sent") return { label: sentLabel, tone: "done" };
  if (status === "failed")
    return {
      label: `Fehlgeschlagen (${attempts} ${attempts === 1 ? "Versuch" : "Versuche"})`,
      tone: "failed",
    };
  if (attempts > 0)
    return {
      label: `Fehlgeschlagen – neuer Versuch geplant (${attempts} von ${OUTBOX_MAX_ATTEMPTS})`,
      tone: "retrying",
    };
  return { label: "Wartend", tone: "waiting" };
}
