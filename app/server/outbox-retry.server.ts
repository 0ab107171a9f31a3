import { OUTBOX_MAX_ATTEMPTS } from "~/lib/outbox-status";

/**
 * Retry and backoff shared by the durable outboxes (mail_outbox, webhook_deliveries; ADR 140):
 * a failed attempt is retried after 30 s, 1 min, 2 min ... capped at 1 h; after MAX_ATTEMPTS the
 * row is "failed" and waits for the retry button.
 */
export const MAX_ATTEMPTS = OUTBOX_MAX_ATTEMPTS;

export const backoffMs = (attempts: number) => Math.min(3600_000, 30_000 * 2 ** (attempts - 1));

/** After a failed attempt: the row's new attempt count, status and next due time. */
export function afterFailure(previousAttempts: number, now = Date.now()) {
  const attempts = previousAttempts + 1;
  return {
    attempts,
    status: attempts >= MAX_ATTEMPTS ? ("failed" as const) : ("pending" as const),
    nextAttemptAt: new Date(now + backoffMs(attempts)),
  };
}

/** One batch at a time per outbox: a worker's tick, process and drain calls never overlap. */
export function serialRunner() {
  let running: Promise<unknown> | undefined;
  return {
    get busy() {
      return running !== undefined;
    },
    idle: () => running,
    async run<T>(fn: () => Promise<T>): Promise<T> {
      while (running) await running.catch(() => {});
      const batch = fn();
      running = batch;
      try {
        return await batch;
      } finally {
        if (running === batch) running = undefined;
      }
    },
  };
}
