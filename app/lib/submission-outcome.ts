// What the JS contact form says after "Anfrage senden" did not end in a created request, and
// whether its retry keeps the Idempotency-Key (ADR 210). Pure: no React, no DOM.

/** The spec's fallback text of a failed submission (§8). */
export const SUBMISSION_FAILED = "Es gab einen Fehler beim Senden. Bitte versuche es erneut.";

const KEPT = "Alles, was du eingegeben hast, ist noch da – auch Dateien und Aufnahme.";
const NOT_TWICE = "Doppelt ankommen kann sie dabei nicht.";

/** No connection (offline, connection reset): the answer is unknown. */
export const SUBMISSION_NETWORK_ERROR = `Wir konnten unseren Server nicht erreichen. ${KEPT} Prüfe deine Internetverbindung und sende die Anfrage dann noch einmal. ${NOT_TWICE}`;
/** The server took the data but did not answer in time: the answer is unknown. */
export const SUBMISSION_TIMEOUT = `Unser Server antwortet gerade nicht. ${KEPT} Sende die Anfrage in einem Moment einfach noch einmal. ${NOT_TWICE}`;
/** The first attempt (same key) is still at work on the server (409 from the idempotency guard). */
export const SUBMISSION_IN_PROGRESS = `Deine Anfrage wird gerade noch übertragen. ${KEPT} Warte einen Moment und sende sie dann noch einmal. ${NOT_TWICE}`;

/** How one attempt ended: an HTTP answer, no connection, or no answer in time. */
export type SendOutcome =
  | { kind: "answer"; status: number; body: Record<string, unknown> | null }
  | { kind: "network" }
  | { kind: "timeout" };

/**
 * The message of an attempt that did not create a request (null for a field/upload problem the
 * form shows at the fields) and whether the next attempt reuses the key: yes whenever the
 * server may have created the request without the browser hearing of it (no answer, 409, 5xx,
 * none of which the server remembers); no after any other answer, which it remembers for the key.
 */
export function submissionFailure(outcome: SendOutcome): {
  message: string;
  keepKey: boolean;
} {
  if (outcome.kind === "network") return { message: SUBMISSION_NETWORK_ERROR, keepKey: true };
  if (outcome.kind === "timeout") return { message: SUBMISSION_TIMEOUT, keepKey: true };
  const serverText = typeof outcome.body?.error === "string" ? outcome.body.error : null;
  if (outcome.status === 409) return { message: SUBMISSION_IN_PROGRESS, keepKey: true };
  if (outcome.status >= 500) {
    return { message: serverText ?? SUBMISSION_FAILED, keepKey: true };
  }
  return { message: serverText ?? SUBMISSION_FAILED, keepKey: false };
}

/** A new Idempotency-Key (getRandomValues also works on plain http, randomUUID does not). */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
