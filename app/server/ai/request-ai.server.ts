import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { RequestJson } from "~/lib/request-json";
import { requests } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { failure, type Result } from "../platform/result.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { voiceTranscriptOf } from "../requests/admin-extras.server";
import { laterUpdatedAt, NOT_FOUND, requestTarget } from "../requests/manage.server";
import { loadRequestJson } from "../requests/serialize.server";
import { aiBudget } from "../spam/budgets.server";
import {
  AI_NOT_CONFIGURED,
  AiBudgetError,
  AiError,
  aiConfigured,
  toAiError,
} from "./anthropic.server";
import {
  generateCodingPrompt,
  generatePreparation,
  generateSummary,
  mergeOnlyEmpty,
  UnusableSummaryError,
} from "./preparation.server";

/**
 * Automatic preparation: asks Claude for every configured field, fills only the empty ones, saves
 * the merged data and returns it. The system prompt comes from the saved configuration, never the caller.
 */
export async function runAutomatedPreparation(
  id: number,
  actor: AuditActor = "System",
): Promise<
  Result<{ preparationData: Record<string, string>; filled: string[]; request: RequestJson }>
> {
  const request = loadRequestJson(id);
  if (!request) return NOT_FOUND;
  // Without a key nothing is attempted (the page disables the button; the API answers 503).
  if (!aiConfigured()) return failure(503, AI_NOT_CONFIGURED);
  const fields = getConfiguration().preparationFields;
  try {
    const generated = await generatePreparation(
      { ...request, voiceTranscript: voiceTranscriptOf(id) },
      fields,
    );
    // Re-read right before saving: text typed meanwhile is never overwritten.
    const current = db()
      .select({ data: requests.preparationData })
      .from(requests)
      .where(eq(requests.id, id))
      .get();
    const before = current?.data ?? {};
    const merged = mergeOnlyEmpty(before, generated, fields);
    // Forward only, also within one ms: the conflict checks compare against both (manage.server).
    const later = laterUpdatedAt();
    db()
      .update(requests)
      .set({ preparationData: merged, updatedAt: later, preparationUpdatedAt: later })
      .where(eq(requests.id, id))
      .run();
    const filled = Object.keys(merged).filter((k) => (merged[k] ?? "") !== (before[k] ?? ""));
    if (filled.length)
      audit(actor, "preparation-edited", requestTarget(id), { felder: filled, ki: true });
    return { ok: true, preparationData: merged, filled, request: loadRequestJson(id) ?? request };
  } catch (error) {
    const e = toAiError(error);
    return failure(e.status, e.message);
  }
}

/** Prompt for an AI coding assistant from the request, its preparation data and customer info. */
export async function runCodingPrompt(
  id: number,
  overrides: { preparationData?: Record<string, string> } = {},
): Promise<Result<{ prompt: string; source: "ai" | "template" }>> {
  const request = loadRequestJson(id);
  if (!request) return NOT_FOUND;
  const fields = getConfiguration().preparationFields;
  const useAi = aiConfigured();
  try {
    const prompt = await generateCodingPrompt(
      { ...request, voiceTranscript: voiceTranscriptOf(id) },
      { ...request.preparationData, ...(overrides.preparationData ?? {}) },
      fields,
      useAi,
    );
    return { ok: true, prompt, source: useAi ? "ai" : "template" };
  } catch (error) {
    const e = toAiError(error);
    return failure(e.status, e.message);
  }
}

const MAX_SUMMARY_ATTEMPTS = 3;

/**
 * Writes summaries for new requests (never on the visitor's path); failed ones are retried later.
 * At most `ai.dailyLimit` AI calls a Berlin day (ADR 255): beyond it the rest wait for the next
 * day, without using up their attempts (the requests page says so).
 */
export async function summarizePending(limit = 5): Promise<number> {
  if (!aiConfigured() || aiBudget().exhausted) return 0;
  // The candidates from the small partial index requests_summary_pending_idx (oldest first),
  // never a walk over the table (ADR 275); its WHERE is repeated here literally.
  const ids = db()
    .all<{ id: number }>(
      sql`SELECT id FROM ${requests} INDEXED BY requests_summary_pending_idx
          WHERE ${requests.summary} IS NULL
            AND ${requests.summaryAttempts} < ${sql.raw(String(MAX_SUMMARY_ATTEMPTS))}
            AND ${requests.quarantinedAt} IS NULL
          ORDER BY id LIMIT ${limit}`,
    )
    .map((r) => r.id);
  const pending = ids.length
    ? db().select().from(requests).where(inArray(requests.id, ids)).orderBy(asc(requests.id)).all()
    : [];
  let written = 0;
  for (const row of pending) {
    db()
      .update(requests)
      .set({ summaryAttempts: row.summaryAttempts + 1 })
      .where(eq(requests.id, row.id))
      .run();
    try {
      const summary = await generateSummary({ ...row, createdAt: row.createdAt.toISOString() });
      db()
        .update(requests)
        .set({ summary })
        .where(and(eq(requests.id, row.id), isNull(requests.summary)))
        .run();
      written++;
    } catch (error) {
      if (error instanceof AiBudgetError) {
        // Nothing was sent: the attempt does not count, the request waits for tomorrow.
        db()
          .update(requests)
          .set({ summaryAttempts: row.summaryAttempts })
          .where(eq(requests.id, row.id))
          .run();
        break;
      }
      // An answer that is not plain text (`{}`): discarded, the attempt counts; the next round
      // asks again (at most MAX_SUMMARY_ATTEMPTS), the others of this round go on.
      if (error instanceof UnusableSummaryError) continue;
      if (!(error instanceof AiError)) throw error;
      // Provider down or busy: stop this round, the next one retries.
      break;
    }
  }
  return written;
}

let timer: NodeJS.Timeout | undefined;
let running: Promise<number> | undefined;

/** One round of the job, never two at a time (the timer's tick and the test hook share it). */
async function summaryRound(): Promise<number> {
  while (running) await running.catch(() => 0);
  running = summarizePending().finally(() => {
    running = undefined;
  });
  return running;
}

/** Background task (boot): polls every 30 s while the AI is configured. */
export const summaryTask = {
  start() {
    if (timer || !aiConfigured()) return;
    const tick = () => {
      if (running) return;
      summaryRound().catch(() => undefined);
    };
    timer = setInterval(tick, 30_000);
    timer.unref();
    setTimeout(tick, 2_000).unref();
  },
  async stop() {
    if (timer) clearInterval(timer);
    timer = undefined;
    await running?.catch(() => undefined);
  },
};

registerTestHooks({
  drainSummaries: async () => {
    let written = 0;
    for (let n = await summaryRound(); n > 0; n = await summaryRound()) written += n;
    return written;
  },
});
