import { and, eq, gt, lt } from "drizzle-orm";
import { isAdminReturnPath } from "~/lib/return-path";
import { CHALLENGE_TTL_MINUTES, TWO_FACTOR_MESSAGES as M } from "~/lib/two-factor";
import { admins, loginChallenges } from "~db/schema";
import { hashToken, randomToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import { tooManyMessage } from "../../platform/rate-limit.server";
import type { CompletedLogin } from "../auth.server";
import { codeKey, codeLimiter } from "./step-up.server";
import { acceptSecondFactor } from "./two-factor.server";

/**
 * The step between password and code (ADR 256). The password step of an admin with 2FA hands out
 * a random challenge (stored as SHA-256, 5 minutes) instead of a session; the code step trades it
 * with a TOTP code or a recovery code for the session, once. Wrong codes count per admin (not per
 * challenge, which the password holder could renew): the 6th within 15 minutes answers 429.
 */

export function createLoginChallenge(adminId: number, redirectTo?: string | null): string {
  const now = new Date();
  db().delete(loginChallenges).where(lt(loginChallenges.expiresAt, now)).run();
  const token = randomToken();
  db()
    .insert(loginChallenges)
    .values({
      tokenHash: hashToken(token),
      adminId,
      redirectTo: isAdminReturnPath(redirectTo) ? redirectTo : null,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MINUTES * 60_000),
    })
    .run();
  return token;
}

/** The admin a live challenge belongs to (null when unknown or expired). */
export function challengeAdminId(challenge: string): number | null {
  if (!challenge) return null;
  const row = db()
    .select({ adminId: loginChallenges.adminId })
    .from(loginChallenges)
    .where(
      and(
        eq(loginChallenges.tokenHash, hashToken(challenge)),
        gt(loginChallenges.expiresAt, new Date()),
      ),
    )
    .get();
  return row?.adminId ?? null;
}

export type ChallengeOutcome =
  | { kind: "expired"; message: string }
  | { kind: "limited"; retryAfterSeconds: number; message: string }
  | { kind: "failed"; message: string }
  | ({ kind: "ok"; via: "totp" | "recovery" } & CompletedLogin);

/** Trades a live challenge and a right code for the session (completeLogin). */
export async function verifyLoginChallenge(
  input: { challenge: string; code?: string; recoveryCode?: string },
  complete: (row: typeof admins.$inferSelect, redirectTo: string | null) => CompletedLogin,
): Promise<ChallengeOutcome> {
  const tokenHash = hashToken(input.challenge);
  const found = db()
    .select({ admin: admins, redirectTo: loginChallenges.redirectTo })
    .from(loginChallenges)
    .innerJoin(admins, eq(admins.id, loginChallenges.adminId))
    .where(and(eq(loginChallenges.tokenHash, tokenHash), gt(loginChallenges.expiresAt, new Date())))
    .get();
  if (!found?.admin.isActive || !found.admin.totpEnabled) {
    return { kind: "expired", message: M.challengeExpired };
  }
  const limiter = codeLimiter();
  const key = codeKey(found.admin.id);
  const state = await limiter.consume(key);
  if (!state.ok) {
    return {
      kind: "limited",
      retryAfterSeconds: state.retryAfterSeconds,
      message: tooManyMessage(state.retryAfterSeconds, "admin"),
    };
  }
  const via = await acceptSecondFactor(found.admin, input);
  if (!via) return { kind: "failed", message: M.codeWrong };
  // Used once: of two parallel steps with one challenge only the one that deletes it goes on.
  const claimed = db()
    .delete(loginChallenges)
    .where(eq(loginChallenges.tokenHash, tokenHash))
    .run();
  if (claimed.changes !== 1) return { kind: "expired", message: M.challengeExpired };
  await limiter.reset(key);
  return { kind: "ok", via, ...complete(found.admin, found.redirectTo) };
}
