import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Loopback ports of one Playwright worker's stack (tests/e2e/stack.ts). Every worker gets its own
 * block of 20 ports above E2E_PORT_BASE: block = workerIndex % 5, so a worker that is still
 * shutting down never shares ports with the one that replaces it (Playwright runs 2 workers).
 */
export function portsFor(workerIndex: number) {
  const base = Number(process.env.E2E_PORT_BASE ?? 3210) + (workerIndex % 5) * 20;
  return {
    app: base,
    smtp: base + 1,
    calcom: base + 3,
    anthropic: base + 4,
    /** A second app server configured with the Cal.com stand-in (started only when a test asks). */
    calcomApp: base + 10,
  } as const;
}
export type StackPorts = ReturnType<typeof portsFor>;

/** The fresh data folder (databases + uploads) of one worker's stack; removed when it stops. */
export function dataDirFor(workerIndex: number) {
  return path.join(
    tmpdir(),
    `anfrage-e2e-${process.env.E2E_RUN_ID ?? "local"}-${process.env.E2E_PORT_BASE ?? 3210}-w${workerIndex}`,
  );
}
