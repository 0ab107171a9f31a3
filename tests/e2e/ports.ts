import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Loopback ports of one Playwright worker's stack (tests/e2e/stack.ts). Every worker gets its own
 * block of 20 ports above E2E_PORT_BASE: block = workerIndex % 5, so a worker that is still
 * shutting down never shares ports with the one that replaces it (Playwright runs 2 workers).
 */
export function portsFor(workerIndex: number) {
  let base = Number(process.env.E2E_PORT_BASE ?? 3210) + (workerIndex % 5) * 20;
  // Never a port that fetch (and Chromium) refuse to connect to, e.g. 5060/5061 (SIP): the health
  // probe would wait forever. Such a block moves up by the five blocks' span.
  while (Object.values(blockPorts(base)).some((port) => FETCH_BAD_PORTS.has(port))) base += 100;
  return blockPorts(base);
}

const blockPorts = (base: number) =>
  ({
    app: base,
    smtp: base + 1,
    calcom: base + 3,
    anthropic: base + 4,
    /** The OpenAI-compatible transcription stand-in (ADR 272). */
    transcription: base + 5,
    /** The IMAP stand-in of the replies app (ADR 285, started only when a test asks). */
    imap: base + 6,
    /** A second app server configured with the Cal.com stand-in (started only when a test asks). */
    calcomApp: base + 10,
    /** A third app server without SMTP and AI, with a strict login limit (started on demand). */
    plainApp: base + 11,
    /** A fourth app server polling the IMAP stand-in for replies (started on demand). */
    imapApp: base + 12,
    /** The agency's own website framing /embed (tests/e2e/embed.spec.ts, started per spec file). */
    embedHost: base + 13,
  }) as const;

/** The Fetch standard's "bad ports" above 1023 (undici and Chromium block them). */
const FETCH_BAD_PORTS = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
  6679, 6697, 10080,
]);
export type StackPorts = ReturnType<typeof portsFor>;

/** The fresh data folder (databases + uploads) of one worker's stack; removed when it stops. */
export function dataDirFor(workerIndex: number) {
  return path.join(
    tmpdir(),
    `anfrage-e2e-${process.env.E2E_RUN_ID ?? "local"}-${process.env.E2E_PORT_BASE ?? 3210}-w${workerIndex}`,
  );
}
