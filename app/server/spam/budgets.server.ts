import { eq, sql } from "drizzle-orm";
import { berlinToday } from "~/lib/booking-calendar";
import { rateLimits } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";

/**
 * Daily budgets (issue 26, ADR 255): counters per Berlin day in `rate_limits` (key
 * `budget:<name>:<day>`), so they hold across restarts and processes. Taking one is one atomic
 * upsert that refuses once the day's limit is used up, so N parallel calls let exactly the limit
 * through. Rows are kept a week (the rate limiter's clean-up removes them after `expire`).
 */
const KEEP_MS = 8 * 24 * 3600_000;
const dayKey = (name: string, now: Date) => `budget:${name}:${berlinToday(now)}`;

export type BudgetName = "ai-calls" | "mails-held" | "transcriptions" | "script-free";

/** How many of `name` were counted on the Berlin day of `now`. */
export function countToday(name: BudgetName, now = new Date()): number {
  return (
    db()
      .select({ points: rateLimits.points })
      .from(rateLimits)
      .where(eq(rateLimits.key, dayKey(name, now)))
      .get()?.points ?? 0
  );
}

/**
 * Counts one of `name` today; with `limit`, only while fewer than `limit` were counted (false
 * then, nothing counted).
 */
export function takeToday(name: BudgetName, limit = Number.POSITIVE_INFINITY, now = new Date()) {
  if (limit <= 0) return false;
  const row = db()
    .insert(rateLimits)
    .values({ key: dayKey(name, now), points: 1, expire: now.getTime() + KEEP_MS })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { points: sql`${rateLimits.points} + 1` },
      setWhere: Number.isFinite(limit) ? sql`${rateLimits.points} < ${limit}` : undefined,
    })
    .returning({ points: rateLimits.points })
    .get();
  return row !== undefined;
}

/** Gives one of `name` back (a counted call that never went out). */
export function giveBackToday(name: BudgetName, now = new Date()) {
  db()
    .update(rateLimits)
    .set({ points: sql`max(0, ${rateLimits.points} - 1)` })
    .where(eq(rateLimits.key, dayKey(name, now)))
    .run();
}

/** The AI budget of today: calls made (summaries and manual actions together) and the limit. */
export function aiBudget(now = new Date()) {
  const limit = getConfiguration().ai.dailyLimit;
  const used = countToday("ai-calls", now);
  return { used, limit, exhausted: used >= limit };
}

/** Said to admins (page and API, 429) when today's AI calls are used up. */
export function aiBudgetMessage(limit: number) {
  return `Das Tageslimit für KI-Aufrufe ist erreicht (${limit} pro Tag). Ab Mitternacht geht es weiter – bis dahin können Sie die Felder von Hand ausfüllen.`;
}

/** Reserves one AI call of today's budget (`ai.dailyLimit`); false when it is used up. */
export function takeAiCall(now = new Date()) {
  return takeToday("ai-calls", getConfiguration().ai.dailyLimit, now);
}

/** Reserves one transcription of today's budget (`transcription.dailyLimit`); false when used up. */
export function takeTranscription(now = new Date()) {
  return takeToday("transcriptions", getConfiguration().transcription.dailyLimit, now);
}
