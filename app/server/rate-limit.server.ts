import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "./env.server";

export type LimitSpec = { points: number; durationSeconds: number };
export type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** A fixed-window limiter kept in memory (one machine; counts reset on restart). */
export function createLimiter(spec: LimitSpec) {
  const limiter = new RateLimiterMemory({ points: spec.points, duration: spec.durationSeconds });
  return {
    /** Counts one hit for key; refused once the window's points are used up. */
    async consume(key: string, points = 1): Promise<LimitResult> {
      try {
        await limiter.consume(key, points);
        return { ok: true };
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          return {
            ok: false,
            retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
          };
        }
        throw error;
      }
    },
    /** Whether key is currently blocked, without counting a hit. */
    async check(key: string): Promise<LimitResult> {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= spec.points) {
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
      }
      return { ok: true };
    },
    async reset(key: string) {
      await limiter.delete(key);
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;

let submission: Limiter | undefined;
let login: Limiter | undefined;
/** Public request submissions per client IP (SUBMISSION_RATE_LIMIT, default 10/1h). */
export const submissionLimiter = () => (submission ??= createLimiter(env().SUBMISSION_RATE_LIMIT));
/** Failed logins and reset requests per IP and per IP + username (LOGIN_RATE_LIMIT, default 5/15m). */
export const loginLimiter = () => (login ??= createLimiter(env().LOGIN_RATE_LIMIT));

/** German 429 message with the wait time in minutes. */
export function tooManyMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Zu viele Versuche. Bitte warte ${minutes} ${minutes === 1 ? "Minute" : "Minuten"} und versuche es dann erneut.`;
}
