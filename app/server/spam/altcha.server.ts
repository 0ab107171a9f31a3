import { type Challenge, createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { sql } from "drizzle-orm";
import { ALTCHA_POW } from "~/lib/altcha";
import { rateLimits } from "~db/schema";
import { derivedKeys } from "../platform/crypto.server";
import type { Db } from "../platform/db.server";

/** The widget's payload is a few hundred bytes; anything far larger is not one. */
const MAX_PAYLOAD_LENGTH = 4_096;

/** Two secrets per SESSION_SECRET: the challenge signature and the derived-key signature. */
const secrets = () => ({
  challenge: derivedKeys("altcha-challenge").map((key) => key.toString("hex")),
  derivedKey: derivedKeys("altcha-derived-key").map((key) => key.toString("hex")),
});

/** GET /api/altcha/challenge: a new signed challenge, exactly as altcha-lib creates it. */
export async function newChallenge(now = Date.now()) {
  const keys = secrets();
  return createChallenge({
    algorithm: ALTCHA_POW.algorithm,
    cost: ALTCHA_POW.cost,
    counter: randomInt(ALTCHA_POW.counterMax, ALTCHA_POW.counterMin),
    deriveKey,
    expiresAt: Math.floor(now / 1000) + ALTCHA_POW.ttlSeconds,
    hmacSignatureSecret: keys.challenge[0] as string,
    hmacKeySignatureSecret: keys.derivedKey[0] as string,
  });
}

export type SolutionCheck =
  | { ok: true; nonce: string; expiresAtMs: number }
  | { ok: false; reason: "missing" | "invalid" | "expired" };

type Payload = { challenge: Challenge; solution: { counter: number; derivedKey: string } };

function parsePayload(field: string): Payload | null {
  if (field.length > MAX_PAYLOAD_LENGTH) return null;
  try {
    const value = JSON.parse(Buffer.from(field, "base64").toString("utf8")) as Payload;
    const parameters = value?.challenge?.parameters;
    if (!parameters || typeof parameters.nonce !== "string" || !value.solution) return null;
    if (typeof parameters.expiresAt !== "number") return null;
    return value;
  } catch {
    return null;
  }
}

/**
 * Checks the `altcha` field of a submission: signed by one of the current keys, not expired, a
 * correct solution. Whether it was used before is decided when the submission is stored
 * (`claimSolution`), so only an accepted submission uses it up.
 */
export async function checkSolution(field: string | undefined | null): Promise<SolutionCheck> {
  if (!field) return { ok: false, reason: "missing" };
  const payload = parsePayload(field);
  if (!payload) return { ok: false, reason: "invalid" };
  const keys = secrets();
  for (const [index, challengeKey] of keys.challenge.entries()) {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: challengeKey,
      hmacKeySignatureSecret: keys.derivedKey[index],
    }).catch(() => null);
    if (result?.expired) return { ok: false, reason: "expired" };
    if (result?.verified) {
      const { nonce, expiresAt } = payload.challenge.parameters;
      return { ok: true, nonce, expiresAtMs: (expiresAt as number) * 1000 };
    }
  }
  return { ok: false, reason: "invalid" };
}

const USED_PREFIX = "altcha:";

/**
 * Marks a verified solution as used, inside the transaction that stores the submission: true the
 * first time, false for a replay. Remembered in `rate_limits` (key `altcha:<nonce>`, expiring with
 * the challenge); expired marks are dropped on the way.
 */
export function claimSolution(
  tx: Db,
  check: { nonce: string; expiresAtMs: number },
  now = Date.now(),
) {
  tx.delete(rateLimits)
    .where(sql`${rateLimits.key} GLOB ${`${USED_PREFIX}*`} AND ${rateLimits.expire} < ${now}`)
    .run();
  const inserted = tx
    .insert(rateLimits)
    .values({ key: `${USED_PREFIX}${check.nonce}`, points: 1, expire: check.expiresAtMs })
    .onConflictDoNothing()
    .run();
  return inserted.changes === 1;
}
