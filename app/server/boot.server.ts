import { accountSweepTask } from "./accounts/auth.server";
import { ensureFirstAdmin } from "./accounts/first-admin.server";
import { summaryTask } from "./ai/request-ai.server";
import { demoEventTask } from "./caldav/events.server";
import { calendarSyncTask } from "./caldav/sync.server";
import { calendarWorkerTask } from "./calendar-worker/calendar-worker.server";
import { morningDigestTask } from "./digest/digest-job.server";
import { releaseAbandonedClaims } from "./http/idempotency.server";
import { startMailWorker, stopMailWorker } from "./mail/outbox.server";
import { closeDb, db, optimizeDaily, stopOptimizer } from "./platform/db.server";
import { env } from "./platform/env.server";
import { registerAppMetrics } from "./platform/metrics.server";
import { resetLimiters } from "./platform/rate-limit.server";
import { retentionTask } from "./privacy/retention.server";
import { imapRepliesTask } from "./replies/imap-poll.server";
import { busyFeedTask } from "./team-calendar/busy-feeds.server";
import { transcriptionTask } from "./transcription/jobs.server";
import { uploadSweepTask } from "./uploads/sweep.server";
import { startWebhookWorker, stopWebhookWorker } from "./webhooks/deliveries.server";

type Task = { start?: () => void | Promise<void>; stop?: () => void | Promise<void> };
const tasks: Task[] = [
  uploadSweepTask,
  accountSweepTask,
  summaryTask,
  transcriptionTask,
  imapRepliesTask,
  retentionTask,
  // Stopped first: a running calendar child is killed, so the feed fetch under way ends at once.
  calendarWorkerTask,
  busyFeedTask,
  demoEventTask,
  calendarSyncTask,
  morningDigestTask,
];

let booted: Promise<{ env: ReturnType<typeof env>; shutdown: () => Promise<void> }> | undefined;

/**
 * Process start: env validated, database migrated, first admin, background workers. The tasks
 * (upload boot sweep, retention, AI summaries, account sweep) start after this resolves, so they
 * never hold up the moment the server answers (ADR 277); `shutdown` waits for them.
 */
export function boot() {
  booted ??= (async () => {
    const config = env();
    db();
    releaseAbandonedClaims();
    await ensureFirstAdmin();
    registerAppMetrics();
    startMailWorker();
    startWebhookWorker();
    const started = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      for (const task of tasks) await task.start?.();
    });
    optimizeDaily();
    return {
      env: config,
      async shutdown() {
        await started;
        stopOptimizer();
        for (const task of tasks) await task.stop?.();
        await stopMailWorker();
        await stopWebhookWorker();
        resetLimiters();
        closeDb();
      },
    };
  })();
  return booted;
}
