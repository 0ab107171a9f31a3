import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { count, desc, eq, lt } from "drizzle-orm";
import { FEEDBACK_MESSAGES, type FeedbackEntry, FeedbackSchema } from "~/lib/accessibility";
import { ALTCHA_FIELD } from "~/lib/altcha";
import { clientKey } from "~/lib/client-key";
import { accessibilityFeedback } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db, transaction } from "../platform/db.server";
import { accessibilityFeedbackLimiter } from "../platform/rate-limit.server";
import { type Failure, failure, type Ok } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { claimSolution } from "../spam/altcha.server";
import { HONEYPOT_REFUSED, honeypotFilled } from "../spam/honeypot.server";
import { spamVerdict } from "../spam/verdict.server";

/**
 * Feedback from the accessibility statement's page (ADR 340) under the contact form's spam rules
 * (ADR 250): a filled honeypot is refused, every client has SUBMISSION_RATE_LIMIT's budget
 * (reserved before the work, given back when nothing is stored), and a post without a valid proof
 * of work — every post without JavaScript — or from a blocklisted address is stored `held`
 * (shown as unchecked) instead of refused. Nothing is ever mailed to the typed address.
 */
/** A refused feedback post: the failure (ADR 310) with Conform's reply for the form. */
type Refused = Failure & {
  /** Conform's reply: the messages per field and what was typed. */
  reply: SubmissionResult<string[]>;
  retryAfterSeconds?: number;
};
export type FeedbackResult = Ok<{ id: number; held: boolean }> | Refused;

const formError = (error: string): SubmissionResult<string[]> => ({
  status: "error",
  error: { "": [error] },
});

/** The failure with the reply that shows its message above the form. */
const refused = (f: Failure, reply = formError(f.error)): Refused => ({ ...f, reply });

export async function submitFeedback(form: FormData, clientIp: string): Promise<FeedbackResult> {
  if (!getConfiguration().accessibility.publish)
    return refused(failure(404, FEEDBACK_MESSAGES.unpublished));
  if (honeypotFilled(form)) return refused(failure(400, HONEYPOT_REFUSED));
  const client = clientKey(clientIp);
  const limiter = accessibilityFeedbackLimiter();
  const limited = await limiter.consume(client);
  if (!limited.ok) return refused(limited);
  let result: FeedbackResult | undefined;
  try {
    result = await storeFeedback(form, clientIp);
    return result;
  } finally {
    if (!result?.ok) await limiter.refund(client);
  }
}

async function storeFeedback(form: FormData, clientIp: string): Promise<FeedbackResult> {
  const submission = parseWithZod(form, { schema: FeedbackSchema });
  if (submission.status !== "success") {
    const reply = submission.reply();
    const first = Object.values(reply.error ?? {}).find((list) => list?.length)?.[0];
    return refused(failure(400, first ?? FEEDBACK_MESSAGES.failed), reply);
  }
  const value = submission.value;
  const altcha = form.get(ALTCHA_FIELD);
  const verdict = await spamVerdict(
    typeof altcha === "string" ? altcha : undefined,
    value.email ?? "",
    clientIp,
  );
  const row = transaction((tx) => {
    // A replayed solution proves nothing: the entry is held like one without any.
    const fresh = verdict.solution ? claimSolution(tx, verdict.solution) : true;
    const held = verdict.quarantine || !fresh;
    return tx
      .insert(accessibilityFeedback)
      .values({ ...value, held })
      .returning({ id: accessibilityFeedback.id, held: accessibilityFeedback.held })
      .get();
  });
  return { ok: true, id: row.id, held: row.held };
}

export const FEEDBACK_PAGE_SIZE = 25;

/** The admin list, newest first, a page at a time. */
export function listFeedback(page = 1) {
  const total = db().select({ n: count() }).from(accessibilityFeedback).get()?.n ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / FEEDBACK_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), totalPages);
  const entries: FeedbackEntry[] = db()
    .select()
    .from(accessibilityFeedback)
    .orderBy(desc(accessibilityFeedback.createdAt), desc(accessibilityFeedback.id))
    .limit(FEEDBACK_PAGE_SIZE)
    .offset((current - 1) * FEEDBACK_PAGE_SIZE)
    .all()
    .map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  return { entries, total, page: current, totalPages };
}

export function countFeedback(): number {
  return db().select({ n: count() }).from(accessibilityFeedback).get()?.n ?? 0;
}

/** Erases one entry (audited by its id only); false when it was gone already. */
export function deleteFeedback(id: number, actor: AuditActor): boolean {
  const gone = db().delete(accessibilityFeedback).where(eq(accessibilityFeedback.id, id)).run();
  if (gone.changes === 0) return false;
  audit(actor, "accessibility-feedback-deleted", `Rückmeldung #${id}`);
  return true;
}

/** The retention run: erases entries older than `accessibility.feedbackDays`; returns how many. */
export function purgeOldFeedback(now: Date): number {
  const days = getConfiguration().accessibility.feedbackDays;
  return db()
    .delete(accessibilityFeedback)
    .where(lt(accessibilityFeedback.createdAt, new Date(now.getTime() - days * 86_400_000)))
    .run().changes;
}
