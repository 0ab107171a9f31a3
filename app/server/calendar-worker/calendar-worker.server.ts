import { spawn } from "node:child_process";
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
 * `expandCalendar({ ics, from, to })` → `{ ok: true, busy, events, cutOff, refused, steps }` or
 * `{ ok: false, reason, message }` (German message). Strings in, plain JSON out.
 */

/** Jobs that may wait for the child (ten feeds' worth); more are answered "busy" at once. */
export const MAX_WAITING_JOBS = 10;

// The bundle beside the server build (build/server/calendar-worker.js, made by vite.config.ts),
// or the source in development and tests (Node runs it with its types stripped).
const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = [path.join(here, "calendar-worker.js"), path.join(here, "child.ts")].find((file) =>
  existsSync(file),
);

const state = { running: false, waiting: 0, runs: 0, killed: 0 };
let current: ReturnType<typeof spawn> | undefined;
let queue: Promise<unknown> = Promise.resolve();

const failed = (reason: Exclude<CalendarAnswer, { ok: true }>["reason"], message: string) =>
  ({ ok: false, reason, message }) as const;

/** Expands a calendar in the child; jobs run one after the other. */
export function expandCalendar(job: CalendarJob): Promise<CalendarAnswer> {
  if (state.waiting >= MAX_WAITING_JOBS)
    return Promise.resolve(failed("busy", "Der Kalender-Dienst ist gerade ausgelastet."));
  state.waiting++;
  const run = queue.then(() => {
    state.waiting--;
    return runChild(job);
  });
  queue = run.catch(() => undefined);
  return run;
}

function runChild(job: CalendarJob): Promise<CalendarAnswer> {
  if (!CHILD) return Promise.resolve(failed("crashed", "Kalender-Dienst fehlt im Build."));
  const limits = limitsOf(job);
  state.running = true;
  state.runs++;
  return new Promise<CalendarAnswer>((resolve) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${limits.heapMb}`, "--max-semi-space-size=1", CHILD],
      // Nothing of the server's environment (secrets) goes to the child; two malloc arenas.
      { stdio: ["pipe", "pipe", "pipe"], env: { MALLOC_ARENA_MAX: "2" } },
    );
    current = child;
    let out = "";
    let complaint = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      state.killed++;
      child.kill("SIGKILL");
    }, limits.timeLimitMs);
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
      state.running = false;
      current = undefined;
      resolve(answer);
    };
    child.once("error", (error) => finish(failed("crashed", error.message.slice(0, 120))));
    child.once("close", (code) => {
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
    current?.kill("SIGKILL");
  },
};

registerTestHooks({
  calendarWorker: () => ({
    running: state.running,
    waiting: state.waiting,
    runs: state.runs,
    killed: state.killed,
  }),
});
