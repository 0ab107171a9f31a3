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
function serialRunner() {
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

export type Batch = { attempted: number; sent: number };

/**
 * The one background loop of a durable outbox (mail_outbox, webhook_deliveries): `start` polls
 * every `intervalMs` (only while `enabled()`), `kick` wakes a started worker right after an
 * enqueue, `stop` waits for the batch under way, `drain` sends batch after batch until nothing is
 * due (failures move to a later attempt, so it ends). Batches never overlap.
 */
export function outboxWorker(options: {
  /** Names the worker in the error log. */
  label: string;
  /** One batch: every due row gets one attempt. */
  sendDue: (now: Date) => Promise<Batch>;
  enabled?: () => boolean;
  /** After the last batch on stop (e.g. close the SMTP connection). */
  onStop?: () => void;
}) {
  const runner = serialRunner();
  let timer: NodeJS.Timeout | undefined;
  const batch = (now: Date) => runner.run(() => options.sendDue(now));
  const tick = () => {
    if (runner.busy) return;
    batch(new Date()).catch((error) =>
      console.error(`${options.label}:`, error instanceof Error ? error.message : error),
    );
  };
  return {
    /** Sends every due row once; resolves with how many succeeded. */
    async process(now = new Date()) {
      return (await batch(now)).sent;
    },
    /** Waits for a batch under way, then sends until nothing is due; resolves with how many succeeded. */
    async drain(now?: Date) {
      let sent = 0;
      for (;;) {
        const next = await batch(now ?? new Date());
        sent += next.sent;
        if (next.attempted === 0) return sent;
      }
    },
    kick() {
      if (timer) setImmediate(tick);
    },
    start(intervalMs = 5000) {
      if (timer || (options.enabled && !options.enabled())) return;
      timer = setInterval(tick, intervalMs);
      timer.unref();
      setImmediate(tick);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await runner.idle();
      options.onStop?.();
    },
  };
}
