/**
 * The proof of work of the contact form (ADR 250), shared by the page and the server:
 * the field that carries the widget's payload, where challenges come from, and what the visitor
 * is told while the browser works on one.
 */
export const ALTCHA_FIELD = "altcha";
export const ALTCHA_CHALLENGE_URL = "/api/altcha/challenge";

/**
 * The proof of work of the public forms (ADR 250): ALTCHA's PoW v2 (`altcha-lib` 2.x) with
 * PBKDF2/SHA-256 in deterministic mode — the server picks the counter, so the work is bounded
 * (`counter` derivations of `cost` iterations, spread over the browser's workers) and checking a
 * solution is one HMAC. Tuned so a mid-range phone solves in about a second (docs/benchmarks.md).
 */
export const ALTCHA_POW = {
  algorithm: "PBKDF2/SHA-256",
  cost: 1_000,
  counterMin: 1_500,
  counterMax: 3_000,
  /** A challenge expires after ten minutes (and is remembered as used until then). */
  ttlSeconds: 600,
} as const;

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
