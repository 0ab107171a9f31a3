import { eq, sql } from "drizzle-orm";
import { berlinToday } from "~/lib/booking-calendar";
import { rateLimits } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";

/**
 * Daily budgets (ADR 255): counters per Berlin day in `rate_limits` (key
 * `budget:<name>:<day>`), so they hold across restarts and processes. Taking one is one atomic
 * upsert that refuses once the day's limit is used up, so N parallel calls let exactly the limit
 * through. Rows are kept a week (the rate limiter's clean-up removes them after `expire`).
 */
const KEEP_MS = 8 * 24 * 3600_000;
const dayKey = (name: string, now: Date) => `budget:${name}:${berlinToday(now)}`;

export type BudgetName = "ai-calls" | "ai-manual" | "mails-held" | "transcriptions" | "script-free";

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

/**
 * Who an AI call is for (ADR 318): the automatic summaries of visitors' requests, or an admin's
 * own action. Each has its budget, so visitors can never use up what the admins need.
 */
export type AiBudgetKind = "automatic" | "manual";

const aiBudgetOf = (kind: AiBudgetKind) =>
  kind === "manual"
    ? { name: "ai-manual" as const, limit: getConfiguration().ai.manualDailyLimit }
    : { name: "ai-calls" as const, limit: getConfiguration().ai.dailyLimit };

/** An AI budget of today (default: the automatic summaries'): calls made and the limit. */
export function aiBudget(now = new Date(), kind: AiBudgetKind = "automatic") {
  const { name, limit } = aiBudgetOf(kind);
  const used = countToday(name, now);
  return { used, limit, exhausted: used >= limit };
}

/** Said to admins (page and API, 429) when today's AI calls of `kind` are used up. */
export function aiBudgetMessage(limit: number, kind: AiBudgetKind = "automatic") {
  const what = kind === "manual" ? "Ihre KI-Aktionen" : "KI-Aufrufe";
  return `Das Tageslimit für ${what} ist erreicht (${limit} pro Tag). Ab Mitternacht geht es weiter – bis dahin können Sie die Felder von Hand ausfüllen.`;
}

/** Reserves one AI call of today's budget of `kind`; false when it is used up. */
export function takeAiCall(kind: AiBudgetKind, now = new Date()) {
  const { name, limit } = aiBudgetOf(kind);
  return takeToday(name, limit, now);
}

/** Reserves one transcription of today's budget (`transcription.dailyLimit`); false when used up. */
export function takeTranscription(now = new Date()) {
  return takeToday("transcriptions", getConfiguration().transcription.dailyLimit, now);
}
