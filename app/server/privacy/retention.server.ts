import { subMonths } from "date-fns";
import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import { appointments, jobRuns, mailOutbox, requests, webhookDeliveries } from "~db/schema";
import { purgeOldFeedback } from "../accessibility/feedback.server";
import { getConfiguration } from "../configuration/configuration.server";
import { wipeExpiredSecrets } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { eraseExpiredQuarantine, sendHeldNoticeIfDue } from "../requests/quarantine-jobs.server";
import { audit, purgeAudit } from "./audit.server";
import { checkpoint, eraseRequest } from "./erasure.server";

export type RetentionResult = {
  requests: number;
  /** Quarantined requests erased after spam.quarantineDays. */
  quarantine: number;
  mode: "delete" | "anonymize";
  appointments: number;
  mails: number;
  secrets: number;
  audit: number;
  /** Accessibility feedback older than accessibility.feedbackDays (ADR 340). */
  feedback: number;
};

const DAY = 86_400_000;

/**
 * Applies the configured retention once (`now` injectable for tests): requests untouched for N
 * months are deleted or anonymised (with their appointments), appointments without a request
 * (booked directly at Cal.com, or a request deleted since) deleted once their start is N months
 * past, sent mails purged after N days, expired mail secrets wiped, old
 * audit entries removed. Logs counts only (no personal data) and writes one audit entry.
 */
export async function applyRetention(now = new Date()): Promise<RetentionResult> {
  const { retention } = getConfiguration();
  const cutoff = subMonths(now, retention.requestMonths);
  const quarantine = await eraseExpiredQuarantine(now);
  const stale = db()
    .select({ id: requests.id })
    .from(requests)
    // Anonymised rows (empty e-mail) are done; they stay for statistics.
    // The literal '' as in requests_retention_idx's WHERE: the job reads that partial index.
    .where(and(lt(requests.updatedAt, cutoff), sql`${requests.email} <> ''`))
    .orderBy(asc(requests.updatedAt))
    .all();
  let handled = 0;
  for (const { id } of stale) {
    if ((await eraseRequest(id, retention.requestAction)).ok) handled += 1;
  }
  // Past only: the cutoff lies N months back, so nothing still to happen is removed (or needs a
  // cancellation at Cal.com).
  const orphans = db()
    .delete(appointments)
    .where(and(isNull(appointments.requestId), lt(appointments.startTime, cutoff)))
    .run().changes;
  const mails = db()
    .delete(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, "sent"),
        lt(mailOutbox.sentAt, new Date(now.getTime() - retention.outboxDays * DAY)),
      ),
    )
    .run().changes;
  // Delivered webhooks keep their body (personal data) only as long as sent mails do.
  db()
    .delete(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "sent"),
        lt(webhookDeliveries.sentAt, new Date(now.getTime() - retention.outboxDays * DAY)),
      ),
    )
    .run();
  const secrets = wipeExpiredSecrets(now);
  const feedback = purgeOldFeedback(now);
  const purged = purgeAudit(new Date(now.getTime() - retention.auditDays * DAY));
  const result: RetentionResult = {
    requests: handled,
    quarantine,
    mode: retention.requestAction,
    appointments: orphans,
    mails,
    secrets,
    audit: purged,
    feedback,
  };
  audit("System", "retention", "Aufbewahrung", result, now);
  checkpoint();
  console.info(
    `Aufbewahrung: ${handled} Anfragen ${retention.requestAction === "delete" ? "gelöscht" : "anonymisiert"}, ${quarantine} aus der Spamprüfung gelöscht, ${orphans} Termine ohne Anfrage, ${mails} gesendete E-Mails, ${secrets} abgelaufene Links, ${purged} Protokolleinträge, ${feedback} Rückmeldungen zur Barrierefreiheit entfernt.`,
  );
  return result;
}

const JOB = "retention";

/** Runs the retention when its last run (kept in job_runs, so restarts don't reset it) is > 24 h ago. */
export async function runRetentionIfDue(now = new Date()): Promise<RetentionResult | null> {
  const last = db().select().from(jobRuns).where(eq(jobRuns.name, JOB)).get();
  if (last && now.getTime() - last.lastRunAt.getTime() < DAY) return null;
  // Claim the run first: a second process (or tick) sees it and skips.
  db()
    .insert(jobRuns)
    .values({ name: JOB, lastRunAt: now })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: now } })
    .run();
  const result = await applyRetention(now);
  db().update(jobRuns).set({ result }).where(eq(jobRuns.name, JOB)).run();
  return result;
}

let timer: ReturnType<typeof setInterval> | undefined;
let running: Promise<unknown> | undefined;
/**
 * Background task: checks at start and hourly; runs the daily retention when due, and the owed
 * notice of newly held requests (ADR 327). (The requests held for checking are in each admin's
 * morning digest, ADR 352.)
 */
export const retentionTask = {
  start() {
    const tick = () => {
      if (running) return;
      running = runRetentionIfDue()
        // A request held since the last notice, after its six hours (ADR 327).
        .then(() => sendHeldNoticeIfDue())
        .catch((error) =>
          console.warn(
            "Aufbewahrung fehlgeschlagen:",
            error instanceof Error ? error.message : error,
          ),
        )
        .finally(() => {
          running = undefined;
        });
    };
    tick();
    timer = setInterval(tick, 3600_000);
    timer.unref();
  },
  async stop() {
    if (timer) clearInterval(timer);
    timer = undefined;
    await running;
  },
};
