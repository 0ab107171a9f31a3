import { CODE_FAILURE_LIMIT } from "~/lib/two-factor";
import type { admins } from "~db/schema";
import { verifyPassword } from "../../platform/crypto.server";
import {
  accountLoginLimiter,
  createLimiter,
  tooManyMessage,
} from "../../platform/rate-limit.server";
import { type Failure, failure } from "../../platform/result.server";
import { accountKey, lockWhenFull } from "../login-lock.server";

/**
 * The step-up checks of a signed-in admin (API tokens, 2FA setup, disable and recovery codes, and
 * their forms on /admin/account) count like the login (ADR 263): a wrong
 * password on the account's login lock (10 in 15 minutes lock the account, ADR 263), a wrong
 * code on the login code step's counter `admin:<id>` (5 in 15 minutes, ADR 256). A session holder
 * thus guesses no faster than a stranger at the login form.
 */

type AdminRow = typeof admins.$inferSelect;

/** The login code step's counter of wrong codes, per admin (challenge.server.ts too). */
export const codeLimiter = () => createLimiter("second-factor", CODE_FAILURE_LIMIT);
export const codeKey = (adminId: number) => `admin:${adminId}`;

const limited = (retryAfterSeconds: number): Failure => ({
  ...failure(429, tooManyMessage(retryAfterSeconds, "admin")),
  retryAfterSeconds,
});

/** Checks the admin's password: true, false (counted, may start the lock) or the 429 while locked. */
export async function checkPasswordLimited(
  admin: AdminRow,
  password: string,
): Promise<boolean | Failure> {
  const limiter = accountLoginLimiter();
  const key = accountKey(admin.username);
  const state = await limiter.consume(key);
  if (!state.ok) return limited(state.retryAfterSeconds);
  if (await verifyPassword(password, admin.passwordHash)) {
    await limiter.refund(key);
    return true;
  }
  await lockWhenFull(admin.username, admin);
  return false;
}

/** Runs a second-factor check on the admin's code counter: its answer, or the 429 once it is spent. */
export async function checkCodeLimited<T>(
  adminId: number,
  check: () => Promise<T | false>,
): Promise<T | false | Failure> {
  const limiter = codeLimiter();
  const key = codeKey(adminId);
  const state = await limiter.consume(key);
  if (!state.ok) return limited(state.retryAfterSeconds);
  const accepted = await check();
  if (accepted !== false) await limiter.reset(key);
  return accepted;
}

export const isFailure = (value: unknown): value is Failure =>
  typeof value === "object" && value !== null && (value as Failure).ok === false;
