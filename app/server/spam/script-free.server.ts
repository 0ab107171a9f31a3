import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { data, redirect } from "react-router";
import { clientKey } from "~/lib/client-key";
import {
  ANSWER_PARAM,
  answerMatches,
  CHALLENGE_FIELDS,
  CHALLENGE_INTENT,
  CHECK_RESULT,
  MAX_ATTEMPTS,
  makeQuestion,
  type Question,
  questionText,
  type ScriptFreeCheckView,
} from "~/lib/script-free-challenge";
import { rateLimits, requests } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { readForm } from "../http/http.server";
import { derivedKeys } from "../platform/crypto.server";
import { type Db, db } from "../platform/db.server";
import { createLimiter, type Limiter } from "../platform/rate-limit.server";
import { releaseRequest } from "../requests/quarantine.server";
import { giveBackToday, takeToday } from "./budgets.server";
import { HONEYPOT_REFUSED, honeypotFilled } from "./honeypot.server";

/**
 * The script-free challenge (ADR 326, amends 250): a request that arrived through a page's own
 * form without a valid proof of work (no JavaScript, a post before hydration, the framed form) is
 * stored held as before, and its thank-you page asks one arithmetic question. The question travels
 * signed in a token bound to the request (no server state, used once); a right answer releases
 * the request into the normal flow — counted against `scriptFree.dailyLimit` for all visitors and
 * SCRIPT_FREE_PER_CLIENT per client, above which it stays held for a human. POST /api/requests
 * never gets a challenge.
 */

/** The question waits this long on the thank-you page. */
export const CHALLENGE_TTL_SECONDS = 3600;
/** Releases by the challenge per client (IPv4 address or IPv6 /56) and day. */
export const SCRIPT_FREE_PER_CLIENT = { points: 3, durationSeconds: 24 * 3600 } as const;
/** The name of that per-client limiter (its keys in `rate_limits`). */
export const SCRIPT_FREE_CLIENT_LIMITER = "script-free-client";

let perClient: { database: Db; limiter: Limiter } | undefined;
/** Made per database handle: a limiter keeps its connection, which a restart replaces. */
function clientLimiter(): Limiter {
  const database = db();
  if (perClient?.database !== database)
    perClient = {
      database,
      limiter: createLimiter(SCRIPT_FREE_CLIENT_LIMITER, SCRIPT_FREE_PER_CLIENT),
    };
  return perClient.limiter;
}

const PURPOSE = "script-free-challenge";
const sign = (key: Buffer, payload: string) =>
  createHmac("sha256", key).update(`${PURPOSE}|${payload}`).digest();

type Challenge = {
  requestId: number;
  question: Question;
  attempt: number;
  expiresAt: number;
  nonce: string;
};

const PAYLOAD = /^(\d{1,15})\.(\d{1,2})\.(\d{1,2})\.(plus|minus)\.(\d)\.(\d{1,12})\.([\w-]{16})$/;

/** A new question for the request, signed: `<payload>.<HMAC>`. */
export function issueChallenge(requestId: number, attempt = 0, now = Date.now()): string {
  const q = makeQuestion(randomInt);
  const expiresAt = Math.floor(now / 1000) + CHALLENGE_TTL_SECONDS;
  const nonce = randomBytes(12).toString("base64url");
  const payload = [requestId, q.a, q.b, q.op, attempt, expiresAt, nonce].join(".");
  const [key] = derivedKeys(PURPOSE);
  return `${payload}.${sign(key as Buffer, payload).toString("base64url")}`;
}

/** The challenge a token carries: null when forged, malformed or (unless `expired` is allowed) expired. */
export function openChallenge(
  token: unknown,
  now = Date.now(),
  options: { expired?: boolean } = {},
): Challenge | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const dot = token.lastIndexOf(".");
  const payload = token.slice(0, dot);
  const match = dot > 0 ? PAYLOAD.exec(payload) : null;
  if (!match) return null;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const genuine = derivedKeys(PURPOSE).some((key) => {
    const expected = sign(key, payload);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  const expiresAt = Number(match[6]);
  if (!genuine || (!options.expired && expiresAt * 1000 < now)) return null;
  return {
    requestId: Number(match[1]),
    question: { a: Number(match[2]), b: Number(match[3]), op: match[4] as Question["op"] },
    attempt: Number(match[5]),
    expiresAt,
    nonce: match[7] as string,
  };
}

const claimKey = (challenge: Challenge) => `script-free:${challenge.nonce}`;

const claimed = (challenge: Challenge) =>
  Boolean(
    db()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, claimKey(challenge)))
      .get(),
  );

/** Uses a token up (true the first time): a row in rate_limits expiring with it. */
function claim(challenge: Challenge, now: number): boolean {
  db()
    .delete(rateLimits)
    .where(sql`${rateLimits.key} GLOB 'script-free:*' AND ${rateLimits.expire} < ${now}`)
    .run();
  return (
    db()
      .insert(rateLimits)
      .values({
        key: claimKey(challenge),
        points: 1,
        expire: challenge.expiresAt * 1000,
      })
      .onConflictDoNothing()
      .run().changes === 1
  );
}

const isHeld = (id: number) =>
  Boolean(
    db().select({ at: requests.quarantinedAt }).from(requests).where(eq(requests.id, id)).get()?.at,
  );

/** Whether today's releases by the challenge are used up: then no question is asked at all. */
export const challengeOffered = () => getConfiguration().scriptFree.dailyLimit > 0;

export type ChallengeOutcome =
  | { result: "arrived" }
  | { result: "wrong"; token: string }
  | { result: "by-hand" }
  | { result: "invalid" };

/**
 * Checks an answer (the thank-you page's form): a wrong one gets a new question until
 * MAX_ATTEMPTS; a right one releases the request — while the client and the day have releases
 * left, else it stays held ("by-hand"). Parallel answers: the token is claimed once, the day's
 * counter is one atomic upsert, the release one conditional UPDATE.
 */
export async function answerChallenge(
  token: unknown,
  answer: string,
  clientIp: string,
  now = Date.now(),
): Promise<ChallengeOutcome> {
  const challenge = openChallenge(token, now);
  if (!challenge || !claim(challenge, now)) return { result: "invalid" };
  const { requestId } = challenge;
  if (!isHeld(requestId)) return { result: "arrived" };
  if (!answerMatches(challenge.question, answer)) {
    const next = challenge.attempt + 1;
    return next < MAX_ATTEMPTS
      ? { result: "wrong", token: issueChallenge(requestId, next, now) }
      : { result: "by-hand" };
  }
  const client = clientKey(clientIp);
  if (!(await clientLimiter().consume(client)).ok) return { result: "by-hand" };
  if (!takeToday("script-free", getConfiguration().scriptFree.dailyLimit, new Date(now))) {
    await clientLimiter().refund(client);
    return { result: "by-hand" };
  }
  const released = await releaseRequest(requestId, "Besucher");
  if (!released.ok) {
    giveBackToday("script-free", new Date(now));
    await clientLimiter().refund(client);
    return { result: "invalid" };
  }
  return { result: "arrived" };
}

/**
 * What the thank-you page of `requestId` shows about the challenge: the question while the
 * address carries an unused, unexpired token for this request and the request is held; that it
 * waits for a human once such a token is used up or expired; that it arrived when the answer's
 * redirect says so and the request is no longer held. A blocklisted request (never asked) shows
 * nothing, like any other (ADR 251).
 */
export function checkView(
  requestId: number,
  params: URLSearchParams,
  now = Date.now(),
): ScriptFreeCheckView | null {
  const held = isHeld(requestId);
  if (!held) return params.get("ergebnis") === CHECK_RESULT.arrived ? { state: "arrived" } : null;
  const token = params.get("pruefung");
  const challenge = token ? openChallenge(token, now, { expired: true }) : null;
  if (!challenge || challenge.requestId !== requestId) return null;
  if (challenge.expiresAt * 1000 < now || claimed(challenge)) return { state: "by-hand" };
  return {
    state: params.get("ergebnis") === CHECK_RESULT.wrong ? "wrong" : "ask",
    token: token as string,
    question: questionText(challenge.question),
    attemptsLeft: MAX_ATTEMPTS - challenge.attempt,
  };
}

/**
 * The query of the thank-you page after an answer (the page adds its own `gesendet`): the new
 * question, the arrival, or the used token (so the page can say the request waits for a human).
 */
export function outcomeParams(
  outcome: ChallengeOutcome,
  usedToken: string,
): Record<string, string> {
  switch (outcome.result) {
    case "arrived":
      return { ergebnis: CHECK_RESULT.arrived };
    case "wrong":
      return { ergebnis: CHECK_RESULT.wrong, pruefung: outcome.token };
    case "by-hand":
      return { ergebnis: CHECK_RESULT.byHand, pruefung: usedToken.slice(0, 200) };
    default:
      // Forged, expired or used: the page says what the request's state is, if anything.
      return { pruefung: usedToken.slice(0, 200) };
  }
}

/** Whether a post to the landing page or /embed is an answer (its form posts to `?antwort`). */
const isChallengeAnswer = (request: Request) => new URL(request.url).searchParams.has(ANSWER_PARAM);

/**
 * The answer form of a thank-you page (landing page and /embed): its honeypot, the token and the
 * answer; the query of the page to go back to (its `gesendet` as the form carried it).
 */
async function answerFromForm(form: FormData, clientIp: string): Promise<URLSearchParams> {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  if (field(CHALLENGE_FIELDS.intent) !== CHALLENGE_INTENT || honeypotFilled(form))
    throw data(HONEYPOT_REFUSED, { status: 400 });
  const token = field(CHALLENGE_FIELDS.token);
  const outcome = await answerChallenge(token, field(CHALLENGE_FIELDS.answer), clientIp);
  return new URLSearchParams({
    gesendet: field("gesendet").slice(0, 200),
    ...outcomeParams(outcome, token),
  });
}

/**
 * The fragment of a page that asks the question: one that names no element. A browser skips
 * `autofocus` on a page opened at an element (`#contact`), and a redirect without a fragment
 * inherits the form's; so the answer field takes the focus, which brings the thanks and the
 * question into view.
 */
export const QUESTION_FRAGMENT = "#frage";

/**
 * Where the page opens after an answer: a new question as above; an outcome at the form, so the
 * thanks and the outcome under it are in view.
 */
const answerFragment = (params: URLSearchParams) =>
  params.get("ergebnis") === CHECK_RESULT.wrong ? QUESTION_FRAGMENT : "#contact";

/**
 * A post to a thank-you page (`path`: "/" or "/embed") that answers its question: the answer
 * checked, and the 303 back to the page with the outcome. null for any other post (a submission).
 */
export async function answerIfChallenge(
  request: Request,
  clientIp: string,
  path: string,
): Promise<Response | null> {
  if (!isChallengeAnswer(request)) return null;
  const params = await answerFromForm(await readForm(request), clientIp);
  return redirect(`${path}?${params}${answerFragment(params)}`, { status: 303 });
}
