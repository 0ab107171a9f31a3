import { and, eq, gt } from "drizzle-orm";
import { mailOutbox, rateLimits } from "~db/schema";
import { addressKey } from "../mail/address-key.server";
import type { OutboxMail } from "../mail/outbox.server";
import { db, transaction } from "../platform/db.server";
import { takeToday } from "../spam/budgets.server";

const HOUR_MS = 3600_000;

/**
 * Booking invitations (the confirmation of a new booking or of a move, with its calendar invite)
 * go out at most once per mailbox per hour (ADR 255), however many bookings or moves
 * name the address: the booking always succeeds, only its mail waits. Within the hour after the last
 * invitation the next one is held until that hour ends; a newer one replaces one still held (it
 * carries the latest state), so a flood of bookings sends a stranger one mail an hour at most.
 *
 * State in `rate_limits` (key `invitation:<HMAC of the mailbox>`, as the receipt's limit): `expire`
 * = when the address may get its next invitation, `points` = the outbox id of the one held (0:
 * none). One IMMEDIATE transaction, so parallel bookings cannot both send at once.
 */
export function queueInvitationWithinBudget(
  email: string,
  /** Queues the mail; `replaces` is the kind of a held one it takes the place of. */
  queue: (sendAfter?: Date, replaces?: string) => OutboxMail,
  now = new Date(),
): { mail: OutboxMail; held: boolean } {
  const key = `invitation:${addressKey(email)}`;
  return transaction(() => {
    const slot = db().select().from(rateLimits).where(eq(rateLimits.key, key)).get();
    const nextFree = slot?.expire ?? 0;
    const save = (heldId: number, expire: number) =>
      db()
        .insert(rateLimits)
        .values({ key, points: heldId, expire })
        .onConflictDoUpdate({ target: rateLimits.key, set: { points: heldId, expire } })
        .run();
    if (nextFree <= now.getTime()) {
      const mail = queue();
      save(0, now.getTime() + HOUR_MS);
      return { mail, held: false };
    }
    // One still waiting (never tried, due later): the newer invitation takes its place and time.
    const waiting = slot?.points
      ? db()
          .select({ id: mailOutbox.id, due: mailOutbox.nextAttemptAt, kind: mailOutbox.kind })
          .from(mailOutbox)
          .where(
            and(
              eq(mailOutbox.id, slot.points),
              eq(mailOutbox.status, "pending"),
              eq(mailOutbox.attempts, 0),
              gt(mailOutbox.nextAttemptAt, now),
            ),
          )
          .get()
      : undefined;
    let mail: OutboxMail;
    if (waiting) {
      db().delete(mailOutbox).where(eq(mailOutbox.id, waiting.id)).run();
      mail = queue(waiting.due, waiting.kind);
      save(mail.id, nextFree);
    } else {
      mail = queue(new Date(nextFree));
      save(mail.id, nextFree + HOUR_MS);
    }
    takeToday("mails-held", Number.POSITIVE_INFINITY, now);
    return { mail, held: true };
  });
}
