// The calendar child process (ADR 320): one job on stdin — a JSON line with everything but the
// text, then the iCalendar text as it is (no second copy of it in the heap) — and its answer as
// one JSON line on stdout, then it exits. Started by ./calendar-worker.server.ts with a capped heap and killed at
// the time limit; production runs the bundle build/server/calendar-worker.js (vite.config.ts).
import { setPriority } from "node:os";
import { expandInThisProcess } from "./expand.ts";
import type { CalendarJob } from "./job.ts";

// A lower CPU priority (nice 10: a tenth of the server's weight): on the machine's one vCPU the
// server keeps ~90 % of the CPU while a feed is expanded, and the child is not starved.
try {
  setPriority(10);
} catch {}

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const newline = input.indexOf("\n");
const job = { ...(JSON.parse(input.slice(0, newline)) as object), ics: input.slice(newline + 1) };
process.stdout.write(`${JSON.stringify(expandInThisProcess(job as CalendarJob))}\n`);
