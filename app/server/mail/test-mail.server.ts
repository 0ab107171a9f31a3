import { createHash } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { jobRuns, mailOutbox } from "~db/schema";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";

/** The outbox kind of the go-live check's test mail. */
export const TEST_MAIL_KIND = "setup-test-mail";

/** Where the last successful test mail is remembered (job_runs is the key/value place that survives restarts). */
const RECORD = "setup-check:test-mail";

/** Names the SMTP configuration without keeping it (its credentials never reach the database). */
const smtpFingerprint = () =>
  createHash("sha256")
    .update(env().SMTP_URL ?? "")
    .digest("hex")
    .slice(0, 16);

/** Called by the outbox worker when a test mail has left through SMTP. */
export function recordTestMailSent(at = new Date()) {
  const result = { smtp: smtpFingerprint() };
  db()
    .insert(jobRuns)
    .values({ name: RECORD, lastRunAt: at, result })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: at, result } })
    .run();
}

export type TestMailState =
  /** Sent through the current SMTP configuration. */
  | { state: "sent"; at: Date }
  /** The newest test mail failed (or waits for a retry after a failure). */
  | { state: "failed"; error: string }
  /** Queued, not tried yet. */
  | { state: "pending" }
  | { state: "none" };

/** The go-live check's view of the test mail: a success counts only for the SMTP_URL in use now. */
export function testMailState(): TestMailState {
  const record = db().select().from(jobRuns).where(eq(jobRuns.name, RECORD)).get();
  const sentHere =
    record && (record.result as { smtp?: string } | null)?.smtp === smtpFingerprint();
  const latest = db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.kind, TEST_MAIL_KIND))
    .orderBy(desc(mailOutbox.id))
    .limit(1)
    .get();
  if (latest && latest.status !== "sent" && (!record || latest.createdAt > record.lastRunAt)) {
    if (latest.status === "failed" || latest.attempts > 0)
      return { state: "failed", error: latest.lastError ?? "" };
    if (!sentHere) return { state: "pending" };
  }
  return sentHere ? { state: "sent", at: record.lastRunAt } : { state: "none" };
}
