import type { LookupAddress } from "node:dns";

/**
 * The one door production code opens for tests (ADR 247): flushes and probes that no request path
 * calls. Each module registers its hooks here when it loads; integration tests reach the very
 * instance the server runs as `testHooks` of the built entry (app/entry.server.tsx), unit tests
 * import it from here after importing the module under test. No other module exports a test hook.
 */
export type TestHooks = {
  /** Sends every due mail now; resolves with how many were sent once none is due (`now`: fake clock). */
  drainOutbox(now?: Date): Promise<number>;
  /** Transcribes every due recording now; resolves with how many succeeded once none is due. */
  drainTranscriptions(now?: Date): Promise<number>;
  /** Polls the IMAP inbox now until no new mail is left; resolves with how many replies were filed. */
  drainImapReplies(now?: Date): Promise<number>;
  /** Sends every due webhook delivery now; resolves with how many succeeded once none is due. */
  drainWebhooks(): Promise<number>;
  /** The landing render cache: pages and bytes held, hits, stores. */
  renderCacheStats(): { entries: number; bytes: number; hits: number; stores: number };
  /** The landing fast path (ADR 300): first visits answered before React Router, pages remembered. */
  landingFastPathStats(): { fast: number; remembered: number };
  /** Replaces the webhooks' DNS resolution (no network); no argument restores the system's. */
  setResolver(
    next?: (
      hostname: string,
      callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
    ) => void,
  ): void;
  /** Replaces the free-space reading of the data volume; no argument restores the real one. */
  setFreeDiskReader(next?: (dir: string) => number): void;
  /** Password hashes running right now (the cap of crypto.server.ts). */
  runningHashes(): number;
  /** Writes the AI summaries that are due now, round after round; resolves with how many were written. */
  drainSummaries(): Promise<number>;
  /** Fetches every due team-calendar feed now; resolves with how many succeeded (`now`: fake clock). */
  drainBusyFeeds(now?: Date): Promise<number>;
  /**
   * How an `/api` route module's loader or action treats one method, from its `adminApi`/
   * `publicApi` options, without running it (app/server/http/api-route.server.ts, ADR 306).
   */
  describeApiCall(
    handler: (args: {
      request: Request;
      params: Record<string, string | undefined>;
      context: unknown;
    }) => unknown,
    method: string,
  ): Promise<
    | {
        access: "public" | "admin" | "admin-pending" | "admin-enrol";
        token: string;
        answers: boolean;
      }
    | { status: number }
  >;
  /** Writes every due demo event into the CalDAV calendars now (ADR 336); resolves with how many succeeded. */
  drainCalendarEvents(now?: Date): Promise<number>;
  /** Runs every due CalDAV sync (edits made in the calendar) now; resolves with how many succeeded. */
  drainCalendarSync(now?: Date): Promise<number>;
  /**
   * The calendar worker (ADRs 320, 356): a child running, jobs waiting, children started and
   * killed; look-ups asked for, jobs turned away (queue full), dropped unrun (deadline passed),
   * callers that shared a look-up; per class the children started, the most jobs waiting and the
   * longest wait (ms).
   */
  calendarWorker(): {
    running: boolean;
    waiting: number;
    runs: number;
    killed: number;
    lookups: number;
    refused: number;
    expired: number;
    coalesced: number;
    ran: Record<"booking" | "sync" | "lookup", number>;
    mostWaiting: Record<"booking" | "sync" | "lookup", number>;
    longestWaitMs: Record<"booking" | "sync" | "lookup", number>;
  };
  /**
   * One tick of the morning digest job at `now` (fake clock, ADR 352): the owed admins' digests,
   * as the background task would queue them.
   */
  runMorningDigest(now?: Date): { queued: number; empty: number; failed: number };
};

const hooks: Partial<TestHooks> = {};

/** Called by the owning module at load time. */
export function registerTestHooks(partial: Partial<TestHooks>) {
  Object.assign(hooks, partial);
}

/** Every hook, each looked up when called (its module may load after this one). */
export const testHooks: TestHooks = new Proxy(hooks as TestHooks, {
  get(target, name: keyof TestHooks) {
    const hook = target[name];
    if (!hook) throw new Error(`test hook ${String(name)}: its module is not loaded`);
    return hook;
  },
});
