import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/**
 * The one test helper for the proof of work (ADR 250): fetches a challenge from the
 * server under test (`GET /api/altcha/challenge`) and solves it with altcha-lib, as the browser's
 * widget does, returning the widget's payload for the form field `altcha`. Integration tests and
 * the e2e helpers that submit through the API without a browser send it, so their submissions take
 * the normal flow; protection is never switched off for them.
 */
export async function solvedAltcha(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/altcha/challenge`);
  if (res.status !== 200) throw new Error(`altcha challenge: ${res.status}`);
  return solveAltcha((await res.json()) as Challenge);
}

/** Solves a challenge (four interleaved searches, like the widget's workers) into a payload. */
export async function solveAltcha(challenge: Challenge): Promise<string> {
  const controller = new AbortController();
  const step = 4;
  const solution = await Promise.any(
    Array.from({ length: step }, (_, start) =>
      solveChallenge({
        challenge,
        deriveKey,
        controller,
        counterStart: start,
        counterStep: step,
      }).then((found) => found ?? Promise.reject(new Error("aborted"))),
    ),
  );
  controller.abort();
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString(
    "base64",
  );
}
