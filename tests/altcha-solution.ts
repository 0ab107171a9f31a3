import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { ALTCHA_POW } from "../app/lib/altcha.ts";

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
  // The server never picks a counter below `counterMin`: the search starts there (see below).
  return solveAltcha((await res.json()) as Challenge, ALTCHA_POW.counterMin);
}

/**
 * Solves a challenge (four interleaved searches, like the widget's workers) into a payload. The
 * searches start at `from`: for the server's own challenges the lowest counter it ever picks
 * (`ALTCHA_POW.counterMin`), where the widget, not knowing it, starts at 0 — the same solution,
 * found with about a third of the work (the e2e and integration seeds solve hundreds).
 */
export async function solveAltcha(challenge: Challenge, from = 0): Promise<string> {
  const controller = new AbortController();
  const step = 4;
  const solution = await Promise.any(
    Array.from({ length: step }, (_, start) =>
      solveChallenge({
        challenge,
        deriveKey,
        controller,
        counterStart: from + start,
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
