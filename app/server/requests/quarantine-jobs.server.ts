import { and, asc, eq, isNotNull, lt } from "drizzle-orm";
import { berlinDayOf } from "~/lib/booking-calendar";
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

const DIGEST_JOB = "quarantine-digest";

/** "1 Anfrage wartet auf Prüfung" / "n Anfragen warten auf Prüfung". */
export const digestSubject = (n: number) =>
  n === 1 ? "1 Anfrage wartet auf Prüfung" : `${n} Anfragen warten auf Prüfung`;

/**
 * At most once per Berlin calendar day, the notification recipients hear how many requests wait
 * in the quarantine — a count and a link, no content of the requests. The day of the last mail is
 * kept in job_runs and claimed in the same transaction that queues the (durable) outbox mail, so a
 * restart or a second tick never sends a second one that day. Nothing waiting: no mail, no claim.
 */
export function sendQuarantineDigestIfDue(now = new Date()): boolean {
  return transaction((tx) => {
    const last = tx.select().from(jobRuns).where(eq(jobRuns.name, DIGEST_JOB)).get();
    if (last && berlinDayOf(last.lastRunAt) === berlinDayOf(now)) return false;
    const waiting = countQuarantined();
    if (!waiting) return false;
    const to = notificationRecipients();
    if (!to.length) return false;
    tx.insert(jobRuns)
      .values({ name: DIGEST_JOB, lastRunAt: now, result: { waiting } })
      .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: now, result: { waiting } } })
      .run();
    queueMail({
      to,
      subject: digestSubject(waiting),
      kind: "quarantine-digest",
      content: {
        greeting: "Hallo,",
        paragraphs: [
          `${digestSubject(waiting)}: Sie kamen ohne gültigen Spam-Schutz oder passten zur Sperrliste und haben noch keine Benachrichtigung, keinen Webhook und keine KI-Zusammenfassung ausgelöst.`,
          `Geben Sie echte Anfragen frei oder löschen Sie sie; nach ${quarantineDays()} Tagen werden sie automatisch gelöscht.`,
        ],
        action: { label: "Anfragen prüfen", url: `${env().APP_URL}/admin/requests?tab=quarantine` },
      },
    });
    return true;
  });
}
