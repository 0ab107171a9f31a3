import { and, asc, eq, isNotNull, lt } from "drizzle-orm";
import { jobRuns, requests } from "~db/schema";
import { notificationRecipients } from "../mail/notifications.server";
import { queueMail } from "../mail/outbox.server";
import { db, transaction } from "../platform/db.server";
import { env } from "../platform/env.server";
import { eraseRequest } from "../privacy/erasure.server";
import { countQuarantined, quarantineDays } from "./quarantine.server";

const DAY = 86_400_000;

/**
 * Erases the requests quarantined longer than `spam.quarantineDays` (part of the daily retention
 * run, whose last run job_runs keeps across restarts); returns how many. Read through the partial
 * index requests_quarantined_idx.
 */
export async function eraseExpiredQuarantine(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - quarantineDays() * DAY);
  const expired = db()
    .select({ id: requests.id })
    .from(requests)
    .where(and(isNotNull(requests.quarantinedAt), lt(requests.quarantinedAt, cutoff)))
    .orderBy(asc(requests.id))
    .all();
  let erased = 0;
  for (const { id } of expired) {
    if ((await eraseRequest(id)).ok) erased += 1;
  }
  return erased;
}

const NOTICE_JOB = "quarantine-notice";
/** At most one notice about newly held requests per this many hours (ADR 327). */
export const HELD_NOTICE_HOURS = 6;
export const HELD_NOTICE_SUBJECT = "Neue Anfragen warten auf Prüfung";

/**
 * The notice that something new waits in the quarantine (ADR 327), besides each admin's morning
 * digest (ADR 352):
 * content-free (a count and a link, no request data), at most one per HELD_NOTICE_HOURS. Called
 * when a request is held (`held: true`) and by the hourly tick: a request held within the window
 * of the last notice is announced by the first tick after the window, once. A request whose
 * visitor may still answer the script-free question (`defer`) is left to the tick. The last notice and
 * whether one is owed live in job_runs, claimed in the transaction that queues the durable mail,
 * so parallel submissions and restarts send no second one.
 */
export function sendHeldNoticeIfDue(
  options: { held?: boolean; defer?: boolean; now?: Date } = {},
): boolean {
  const now = options.now ?? new Date();
  return transaction((tx) => {
    const last = tx.select().from(jobRuns).where(eq(jobRuns.name, NOTICE_JOB)).get();
    if (options.held && options.defer) {
      // The visitor may answer the script-free question within the hour: the tick decides.
      tx.insert(jobRuns)
        .values({ name: NOTICE_JOB, lastRunAt: new Date(0), result: { owed: true } })
        .onConflictDoUpdate({ target: jobRuns.name, set: { result: { owed: true } } })
        .run();
      return false;
    }
    const wasOwed = (last?.result as { owed?: boolean } | null)?.owed === true;
    const setOwed = (owed: boolean) =>
      tx.update(jobRuns).set({ result: { owed } }).where(eq(jobRuns.name, NOTICE_JOB)).run();
    const waiting = countQuarantined();
    if (!waiting || !(options.held || wasOwed)) {
      if (wasOwed) setOwed(false);
      return false;
    }
    const due = !last || now.getTime() - last.lastRunAt.getTime() >= HELD_NOTICE_HOURS * 3600_000;
    const to = notificationRecipients();
    if (!due || !to.length) {
      // Announced by the first tick after the window (or once someone is to be told).
      if (last && !wasOwed) setOwed(true);
      return false;
    }
    tx.insert(jobRuns)
      .values({ name: NOTICE_JOB, lastRunAt: now, result: { owed: false } })
      .onConflictDoUpdate({
        target: jobRuns.name,
        set: { lastRunAt: now, result: { owed: false } },
      })
      .run();
    queueMail({
      to,
      subject: HELD_NOTICE_SUBJECT,
      kind: "quarantine-notice",
      content: {
        greeting: "Hallo,",
        paragraphs: [
          `seit der letzten Nachricht ist mindestens eine neue Anfrage in der Prüfung gelandet; insgesamt ${waiting === 1 ? "wartet 1 Anfrage" : `warten ${waiting} Anfragen`}. Angehaltene Anfragen lösen keine Benachrichtigung, keinen Webhook und keine Eingangsbestätigung aus, bis Sie sie freigeben.`,
          `Diese Nachricht kommt höchstens alle ${HELD_NOTICE_HOURS} Stunden; die Morgenübersicht nennt wartende Anfragen ebenfalls.`,
        ],
        action: { label: "Anfragen prüfen", url: `${env().APP_URL}/admin/requests?tab=quarantine` },
      },
    });
    return true;
  });
}
