/**
 * The proof of work of the contact form (ADR 250), shared by the page and the server:
 * the field that carries the widget's payload, where challenges come from, and what the visitor
 * is told while the browser works on one.
 */
export const ALTCHA_FIELD = "altcha";
export const ALTCHA_CHALLENGE_URL = "/api/altcha/challenge";

/** The status line under the submit button (announced politely, ADR 250). */
export const ALTCHA_STATUS = {
  verifying: "Wir prüfen kurz, dass hier ein Mensch schreibt …",
  waiting: "Einen Moment noch: Die Prüfung läuft, danach wird deine Anfrage gesendet …",
  verified: "Prüfung abgeschlossen.",
  failed:
    "Die automatische Prüfung hat nicht geklappt. Du kannst deine Anfrage trotzdem senden – wir sehen sie uns dann von Hand an.",
} as const;

/** A solution that expires within this margin is solved anew before a submission uses it. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Whether a widget payload (base64 JSON with the signed challenge) can no longer be sent: its
 * challenge expires within the margin, or it cannot be read at all.
 */
export function altchaPayloadStale(payload: string, now: number): boolean {
  try {
    const parsed = JSON.parse(atob(payload)) as {
      challenge?: { parameters?: { expiresAt?: unknown } };
    };
    const expiresAt = parsed.challenge?.parameters?.expiresAt;
    if (typeof expiresAt !== "number") return true;
    return expiresAt * 1000 - now < EXPIRY_MARGIN_MS;
  } catch {
    return true;
  }
}
