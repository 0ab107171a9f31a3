import { sql } from "drizzle-orm";
import { RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import { clientKey, networkKey } from "~/lib/client-key";
import { rateLimits } from "~db/schema";
import { db } from "./db.server";
import { env } from "./env.server";
import { type Failure, failure } from "./result.server";

export type LimitSpec = { points: number; durationSeconds: number };
/** Whom a limit's message speaks to: "du" for visitors, "Sie" in the admin area. */
export type Audience = "visitor" | "admin";
/** Refused: a 429 with the wait in German and in seconds (`Retry-After`), ADR 310. */
export type LimitResult = { ok: true } | (Failure & { retryAfterSeconds: number });

const refused = (msBeforeNext: number, audience: Audience): LimitResult => {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return { ...failure(429, tooManyMessage(retryAfterSeconds, audience)), retryAfterSeconds };
};

/**
 * A fixed-window limiter in SQLite (table `rate_limits`, migration 0004): one atomic upsert per hit,
 * so N parallel attempts let exactly the limit through, and a restart resets nothing. Callers
 * reserve before the work (`consume`) and give back what should not count (`refund`).
 */
export function createLimiter(name: string, spec: LimitSpec, audience: Audience = "visitor") {
  const limiter = new RateLimiterSQLite({
    storeClient: db().$client,
    storeType: "better-sqlite3",
    tableName: "rate_limits",
    tableCreated: true,
    keyPrefix: name,
    points: spec.points,
    duration: spec.durationSeconds,
  });
  return {
    name,
    spec,
    audience,
    /** Reserves one hit for key; refused once the window's points are used up. */
    async consume(key: string, points = 1): Promise<LimitResult> {
      try {
        await limiter.consume(key, points);
        return { ok: true };
      } catch (error) {
        if (error instanceof RateLimiterRes) return refused(error.msBeforeNext, audience);
        throw error;
      }
    },
    /** Gives a reserved hit back (a successful login, a submission that was not accepted). */
    async refund(key: string, points = 1) {
      await limiter.reward(key, points);
    },
    /** Whether key is currently blocked, without counting a hit. */
    async check(key: string): Promise<LimitResult> {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= spec.points)
        return refused(state.msBeforeNext, audience);
      return { ok: true };
    },
    async reset(key: string) {
      await limiter.delete(key);
    },
    /** Blocks key for `seconds` from now, whatever it counted (a lock that starts now). */
    async block(key: string, seconds: number) {
      await limiter.block(key, seconds);
    },
    /**
     * Forgets every key that starts with `prefix` and ends with `suffix` (whatever lies between,
     * e.g. the client address of a per-account counter). Both parts are matched literally.
     */
    resetMatching(prefix: string, suffix: string) {
      const pattern = `${globLiteral(`${name}:${prefix}`)}*${globLiteral(suffix)}`;
      db().delete(rateLimits).where(sql`${rateLimits.key} GLOB ${pattern}`).run();
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;

/** A GLOB pattern that matches `text` literally (`*`, `?` and `[` in brackets). */
const globLiteral = (text: string) => text.replace(/[*?[]/g, (c) => `[${c}]`);

let submission: Limiter | undefined;
let login: Limiter | undefined;
let booking: Limiter | undefined;
let slotLookup: Limiter | undefined;
let receipt: Limiter | undefined;
let testMail: Limiter | undefined;
let accountLogin: Limiter | undefined;
let lockMail: Limiter | undefined;
let passkeyOptions: Limiter | undefined;
let affiliateCheck: Limiter | undefined;
let passwordStrength: Limiter | undefined;
let accessibilityFeedback: Limiter | undefined;
/** Public request submissions per client IP (SUBMISSION_RATE_LIMIT, default 10/1h). */
export const submissionLimiter = () =>
  (submission ??= createLimiter("submission", env().SUBMISSION_RATE_LIMIT));
/**
 * Failed logins and reset requests per client and per client + username (LOGIN_RATE_LIMIT, default
 * 5/15m); per network beside them (LOGIN_NETWORK_RATE_LIMIT, ADR 357).
 */
export const loginLimiter = () =>
  (login ??= createLimiter("login", env().LOGIN_RATE_LIMIT, "admin"));
/**
 * Failed logins per account from any address (ADR 263): 10 in 15 minutes, then 15 minutes' wait
 * (unknown names counted the same way); the lock mail at most once per lock.
 */
export const ACCOUNT_LOGIN_LIMIT: LimitSpec = { points: 10, durationSeconds: 900 };
export const accountLoginLimiter = () =>
  (accountLogin ??= createLimiter("login-account", ACCOUNT_LOGIN_LIMIT, "admin"));
export const lockMailLimiter = () =>
  (lockMail ??= createLimiter("login-lock-mail", { points: 1, durationSeconds: 900 }, "admin"));
/**
 * Passkey login options per client (ADR 292): each call writes a WebAuthn challenge, so an
 * anonymous client gets a login's worth, not the database's write rate. Per network five times
 * that (ADR 357).
 */
export const PASSKEY_OPTIONS_LIMIT: LimitSpec = { points: 30, durationSeconds: 300 };
export const passkeyOptionsLimiter = () =>
  (passkeyOptions ??= createLimiter("passkey-options", PASSKEY_OPTIONS_LIMIT, "admin"));
/**
 * Strength checks of the reset page's indicator per client (each runs zxcvbn on the server): a
 * typist's pauses over a few attempts, not a guessing oracle. Per network five times that (ADR 357).
 */
export const PASSWORD_STRENGTH_LIMIT: LimitSpec = { points: 60, durationSeconds: 600 };
export const passwordStrengthLimiter = () =>
  (passwordStrength ??= createLimiter("password-strength", PASSWORD_STRENGTH_LIMIT, "admin"));
/**
 * Feedback from the accessibility statement's page per client: the contact form's budget
 * (SUBMISSION_RATE_LIMIT), counted apart from it (ADR 340).
 */
export const accessibilityFeedbackLimiter = () =>
  (accessibilityFeedback ??= createLimiter("a11y-feedback", env().SUBMISSION_RATE_LIMIT));
/** Demo bookings per client IP (BOOKING_RATE_LIMIT, default 5/1h). */
export const bookingLimiter = () =>
  (booking ??= createLimiter("booking", env().BOOKING_RATE_LIMIT));

/**
 * A visitor's slot look-ups (ADR 356), per client (SLOT_LOOKUP_RATE_LIMIT, default 120 per 10
 * minutes) and per network (SLOT_LOOKUP_NETWORK_RATE_LIMIT, 600): each may ask the team's
 * calendars and be a job of the calendar worker.
 */
const slotLookupLimiter = () =>
  (slotLookup ??= createLimiter("slot-lookup", env().SLOT_LOOKUP_RATE_LIMIT));

/** One counter and its key: what a visitor's action reserves a point on. */
export type LimitKeys = [Limiter, string][];

/**
 * A network's counter beside a client's (ADR 322, 357): its own name (`<client's>-network`), the same
 * window and audience, and five clients' worth of points — or, for submissions, bookings and
 * logins and slot look-ups, the configured limit (SUBMISSION_/BOOKING_/LOGIN_/SLOT_LOOKUP_NETWORK_RATE_LIMIT).
 */
const NETWORK_SHARE = 5;
const networkSpecs: Record<string, () => LimitSpec | undefined> = {
  submission: () => env().SUBMISSION_NETWORK_RATE_LIMIT,
  booking: () => env().BOOKING_NETWORK_RATE_LIMIT,
  login: () => env().LOGIN_NETWORK_RATE_LIMIT,
  "slot-lookup": () => env().SLOT_LOOKUP_NETWORK_RATE_LIMIT,
};
const networkLimiters = new Map<string, Limiter>();
function networkLimiter(client: Limiter): Limiter {
  let limiter = networkLimiters.get(client.name);
  if (!limiter) {
    const spec = networkSpecs[client.name]?.() ?? {
      points: client.spec.points * NETWORK_SHARE,
      durationSeconds: client.spec.durationSeconds,
    };
    limiter = createLimiter(`${client.name}-network`, spec, client.audience);
    networkLimiters.set(client.name, limiter);
  }
  return limiter;
}

/**
 * A client's counter and, beside it, its network's (ADR 322, 357): the client's key (an IPv4 address
 * or IPv6 /56, ADR 254, with whatever prefix the counter uses) and the network's (IPv4 /24, IPv6
 * /48, with `prefix`) — one /48 is 256 clients, but neighbours behind one office or carrier
 * network keep their own limit until the network's higher one is used up.
 */
export function withNetwork(limiter: Limiter, key: string, ip: string, prefix = ""): LimitKeys {
  return [
    [limiter, key],
    [networkLimiter(limiter), `${prefix}${networkKey(ip)}`],
  ];
}

/** The counters of a visitor's submission, booking or slot look-up: the client's and the network's. */
export function visitorLimits(
  action: "submission" | "booking" | "slot-lookup",
  ip: string,
): LimitKeys {
  const limiter = {
    submission: submissionLimiter,
    booking: bookingLimiter,
    "slot-lookup": slotLookupLimiter,
  }[action]();
  return withNetwork(limiter, clientKey(ip), ip);
}

/** Reserves one point on each counter in turn; when one refuses, those reserved are given back. */
export async function consumeAll(keys: LimitKeys): Promise<LimitResult> {
  for (const [index, [limiter, key]] of keys.entries()) {
    const result = await limiter.consume(key);
    if (!result.ok) {
      await refundAll(keys.slice(0, index));
      return result;
    }
  }
  return { ok: true };
}

/** Gives back one point on each counter (the action was not accepted). */
export async function refundAll(keys: LimitKeys) {
  for (const [limiter, key] of keys) await limiter.refund(key);
}

/**
 * Affiliate-code checks per client (ADR 322): each answer tells whether a guessed code exists; per
 * network five times that (ADR 357).
 */
export const AFFILIATE_CHECK_LIMIT: LimitSpec = { points: 30, durationSeconds: 600 };
export const affiliateCheckLimiter = () =>
  (affiliateCheck ??= createLimiter("affiliate-check", AFFILIATE_CHECK_LIMIT));

/** Receipt mails per visitor address: one per 24 h (ADR 220; key = an HMAC of the address). */
export const receiptLimiter = () =>
  (receipt ??= createLimiter("receipt", { points: 1, durationSeconds: 24 * 3600 }));

/** Test mails of the go-live check per admin: a few per hour (ADR 225). */
export const TEST_MAIL_LIMIT: LimitSpec = { points: 5, durationSeconds: 3600 };
export const testMailLimiter = () =>
  (testMail ??= createLimiter("test-mail", TEST_MAIL_LIMIT, "admin"));

/** Limiters hold the database handle of their process: forget them when it closes. */
export function resetLimiters() {
  networkLimiters.clear();
  submission =
    login =
    booking =
    slotLookup =
    receipt =
    testMail =
    accountLogin =
    lockMail =
    passkeyOptions =
    affiliateCheck =
    passwordStrength =
    accessibilityFeedback =
      undefined;
}

/**
 * German 429 message with the wait time in minutes: "du" for visitors (submissions, bookings),
 * "Sie" for the admin area (login, forgotten password).
 */
export function tooManyMessage(retryAfterSeconds: number, audience: Audience = "visitor") {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = `${minutes} ${minutes === 1 ? "Minute" : "Minuten"}`;
  return audience === "admin"
    ? `Zu viele Versuche. Bitte warten Sie ${wait} und versuchen Sie es dann erneut.`
    : `Zu viele Versuche. Bitte warte ${wait} und versuche es dann erneut.`;
}
