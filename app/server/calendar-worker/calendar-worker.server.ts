import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { registerTestHooks } from "../platform/test-hooks.server";
import { type CalendarAnswer, type CalendarJob, limitsOf } from "./job";

/**
 * The calendar worker (ADR 320): untrusted iCalendar text is parsed and expanded in a child
 * process, never on the server's main thread — one at a time, with a capped heap, the lowest CPU
 * priority and a hard time limit that kills it; inside, an event cap, an iteration budget and
 * the refusal of impossible rules (./expand.ts). A child process, not a worker thread: a worker's
 * second isolate leaves ~25–35 MB in the server for good (ADR 296, measured again for ADR 320).
 *
 * `expandCalendar({ ics, from, to }, { priority?, deadline? })` → `{ ok: true, busy, events,
 * cutOff, refused, steps }` or `{ ok: false, reason, message }` (German message). Strings in,
 * plain JSON out.
 *
 * The queue (ADR 356) has three classes, each its own bounded queue: a booking's last check
 * first, then the admins' work (feeds, CalDAV sync; the default), then visitors' slot look-ups
 * in a small share of their own. A job with a deadline (its caller's) that passes while it
 * waits is dropped, not run; one that runs is killed at it. Identical look-ups share one job.
 */

/** The classes of jobs, in the order they are run. */
export type JobPriority = "booking" | "sync" | "lookup";
const PRIORITIES: readonly JobPriority[] = ["booking", "sync", "lookup"];

export type JobOptions = {
  /** Whose job: a booking's check, the admins' work (default) or a visitor's look-up. */
  priority?: JobPriority;
  /** Epoch ms after which the caller no longer waits: the job is not run, or is killed. */
  deadline?: number;
};

/** Jobs of the admins' class that may wait for the child (ten feeds' worth); more answer "busy". */
export const MAX_WAITING_JOBS = 10;
/** Booking checks that may wait (each booking asks once per calendar connection). */
export const BOOKING_WAITING_JOBS = 10;
/** Visitors' look-ups that may wait: their share; more are answered "busy" at once. */
export const LOOKUP_WAITING_JOBS = 4;
const QUEUE_SIZE: Record<JobPriority, number> = {
  booking: BOOKING_WAITING_JOBS,
  sync: MAX_WAITING_JOBS,
  lookup: LOOKUP_WAITING_JOBS,
};

// The bundle beside the server build (build/server/calendar-worker.js, made by vite.config.ts),
// or the source in development and tests (Node runs it with its types stripped).
const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = [path.join(here, "calendar-worker.js"), path.join(here, "child.ts")].find((file) =>
  existsSync(file),
);

type Waiter = {
  resolve: (answer: CalendarAnswer) => void;
  deadline: number | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
};
type Entry = {
  job: CalendarJob;
  priority: JobPriority;
  /** Identical look-ups share the entry (ADR 356). */
  key: string | null;
  waiters: Set<Waiter>;
  queuedAt: number;
  running: boolean;
};

const perClass = <T>(value: () => T) =>
  Object.fromEntries(PRIORITIES.map((p) => [p, value()])) as Record<JobPriority, T>;

const queues = perClass<Entry[]>(() => []);
const shared = new Map<string, Entry>();
const stats = {
  runs: 0,
  killed: 0,
  /** Look-ups asked for (each caller once, shared or not). */
  lookups: 0,
  /** Turned away at once: their class's queue was full. */
  refused: 0,
  /** Dropped from the queue, not run: every caller's deadline passed first. */
  expired: 0,
  /** Callers that shared a look-up already queued or running. */
  coalesced: 0,
  /** Children started per class. */
  ran: perClass(() => 0),
  mostWaiting: perClass(() => 0),
  longestWaitMs: perClass(() => 0),
};
let current: { entry: Entry; child: ReturnType<typeof spawn> } | undefined;

const failed = (reason: Exclude<CalendarAnswer, { ok: true }>["reason"], message: string) =>
  ({ ok: false, reason, message }) as const;
const BUSY = failed("busy", "Der Kalender-Dienst ist gerade ausgelastet.");
const TOO_LATE = failed("deadline", "Der Kalender-Dienst war nicht rechtzeitig frei.");

/** The latest deadline of an entry's callers; undefined when one of them waits without one. */
function deadlineOf(entry: Entry): number | undefined {
  let latest = 0;
  for (const waiter of entry.waiters) {
    if (waiter.deadline === undefined) return undefined;
    latest = Math.max(latest, waiter.deadline);
  }
  return latest;
}

/**
 * Expands a calendar in the child; one job at a time, the classes in their order (ADR 356).
 * Resolves with the answer, "busy" when the class's queue is full, "deadline" when the caller's
 * deadline passed before the job was done.
 */
export function expandCalendar(
  job: CalendarJob,
  options: JobOptions = {},
): Promise<CalendarAnswer> {
  const priority = options.priority ?? "sync";
  const { deadline } = options;
  if (priority === "lookup") stats.lookups++;
  if (deadline !== undefined && deadline <= Date.now()) {
    stats.expired++;
    return Promise.resolve(TOO_LATE);
  }
  const key = priority === "lookup" ? keyOf(job) : null;
  const existing = key ? shared.get(key) : undefined;
  // A running look-up is shared only within its kill time (the latest deadline it has).
  const joinable =
    existing &&
    (!existing.running ||
      (deadline !== undefined && deadline <= (deadlineOf(existing) ?? Number.POSITIVE_INFINITY)));
  if (existing && joinable) {
    stats.coalesced++;
    return wait(existing, deadline);
  }
  const queue = queues[priority];
  if (queue.length >= QUEUE_SIZE[priority]) {
    stats.refused++;
    return Promise.resolve(BUSY);
  }
  const entry: Entry = {
    job,
    priority,
    key,
    waiters: new Set(),
    queuedAt: performance.now(),
    running: false,
  };
  queue.push(entry);
  if (key) shared.set(key, entry);
  stats.mostWaiting[priority] = Math.max(stats.mostWaiting[priority], queue.length);
  const answer = wait(entry, deadline);
  queueMicrotask(next);
  return answer;
}

/** Identical look-ups (the same text, window and options) share one job. */
const keyOf = (job: CalendarJob) =>
  createHash("sha256").update(JSON.stringify(job)).digest("base64url");

/** One caller of an entry: answered with the job's answer, or at its deadline. */
function wait(entry: Entry, deadline: number | undefined): Promise<CalendarAnswer> {
  return new Promise<CalendarAnswer>((resolve) => {
    const waiter: Waiter = { resolve, deadline, timer: undefined };
    entry.waiters.add(waiter);
    if (deadline === undefined) return;
    waiter.timer = setTimeout(
      () => {
        entry.waiters.delete(waiter);
        resolve(TOO_LATE);
        if (entry.waiters.size || entry.running) return;
        // Nobody waits for it any more: it leaves the queue unrun.
        const queue = queues[entry.priority];
        queue.splice(queue.indexOf(entry), 1);
        if (entry.key && shared.get(entry.key) === entry) shared.delete(entry.key);
        stats.expired++;
      },
      Math.max(0, deadline - Date.now()),
    );
  });
}

/** Starts the first waiting job of the highest class when the child is free. */
function next() {
  if (current) return;
  const priority = PRIORITIES.find((p) => queues[p].length > 0);
  if (!priority) return;
  const entry = queues[priority].shift() as Entry;
  entry.running = true;
  const waited = performance.now() - entry.queuedAt;
  stats.longestWaitMs[priority] = Math.max(stats.longestWaitMs[priority], waited);
  const deadline = deadlineOf(entry);
  void runChild(entry, deadline).then((answer) => {
    if (entry.key && shared.get(entry.key) === entry) shared.delete(entry.key);
    for (const waiter of entry.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(answer);
    }
    entry.waiters.clear();
    current = undefined;
    next();
  });
}

function runChild(entry: Entry, deadline: number | undefined): Promise<CalendarAnswer> {
  if (!CHILD) return Promise.resolve(failed("crashed", "Kalender-Dienst fehlt im Build."));
  const { job } = entry;
  const limits = limitsOf(job);
  // The caller's deadline ends the job as well (its callers no longer wait for it).
  const untilDeadline = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
  const killAfter = Math.max(0, Math.min(limits.timeLimitMs, untilDeadline));
  stats.runs++;
  stats.ran[entry.priority]++;
  return new Promise<CalendarAnswer>((resolve) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${limits.heapMb}`, "--max-semi-space-size=1", CHILD],
      // Nothing of the server's environment (secrets) goes to the child; two malloc arenas.
      { stdio: ["pipe", "pipe", "pipe"], env: { MALLOC_ARENA_MAX: "2" } },
    );
    current = { entry, child };
    let out = "";
    let complaint = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stats.killed++;
      child.kill("SIGKILL");
    }, killAfter);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      complaint = (complaint + chunk).slice(-2048);
    });
    child.stdin?.on("error", () => {});
    // The child's input (./child.ts): the job without its text as a JSON line, then the text.
    const { ics, ...rest } = job;
    child.stdin?.write(`${JSON.stringify(rest)}\n`);
    child.stdin?.end(ics);
    const finish = (answer: CalendarAnswer) => {
      clearTimeout(timer);
      resolve(answer);
    };
    child.once("error", (error) => finish(failed("crashed", error.message.slice(0, 120))));
    child.once("close", (code) => {
      if (timedOut && killAfter < limits.timeLimitMs) return finish(TOO_LATE);
      if (timedOut)
        return finish(
          failed(
            "time-limit",
            `Kalender zu aufwendig: nach ${(limits.timeLimitMs / 1000).toLocaleString("de-DE")} s abgebrochen`,
          ),
        );
      if (/heap out of memory|Allocation failed/i.test(complaint))
        return finish(
          failed("memory-limit", `Kalender zu groß zum Einlesen (mehr als ${limits.heapMb} MB)`),
        );
      try {
        if (code === 0) return finish(JSON.parse(out) as CalendarAnswer);
      } catch {}
      finish(failed("crashed", `Kalender-Dienst beendet mit Code ${code}`));
    });
  });
}

/** Server shutdown: the running child is killed, the jobs waiting behind it end as they start. */
export const calendarWorkerTask = {
  stop() {
    current?.child.kill("SIGKILL");
  },
};

registerTestHooks({
  calendarWorker: () => ({
    running: current !== undefined,
    waiting: PRIORITIES.reduce((sum, p) => sum + queues[p].length, 0),
    ...stats,
    ran: { ...stats.ran },
    mostWaiting: { ...stats.mostWaiting },
    longestWaitMs: { ...stats.longestWaitMs },
  }),
});
