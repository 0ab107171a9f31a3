import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox } from "~db/schema";
import { queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { countToday } from "../spam/budgets.server";
import { queueInvitationWithinBudget } from "./invitation-budget.server";

const HOUR = 3600_000;
const invite = (to: string, subject: string, now: Date) =>
  queueInvitationWithinBudget(
    to,
    (sendAfter) =>
      queueMail({
        to,
        subject,
        kind: "booking-confirmation",
        content: { paragraphs: [subject] },
        sendAfter,
      }),
    now,
  );
const row = (id: number) => db().select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
const pendingTo = (to: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to))
    .all()
    .map((m) => [m.subject, m.nextAttemptAt.getTime()]);

describe("booking invitations: at most one per address and hour", () => {
  it("sends the first at once, holds the next until the hour is over and lets a newer one replace the held one", () => {
    const t0 = new Date("2026-05-04T08:00:00Z");
    const first = invite("lea@example.com", "eins", t0);
    expect(first.held).toBe(false);
    expect(row(first.mail.id)?.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());

    // 10 minutes later, a second booking with the same mailbox (a subaddress does not help).
    const second = invite("Lea+2@Example.com", "zwei", new Date(t0.getTime() + 10 * 60_000));
    expect(second.held).toBe(true);
    expect(row(second.mail.id)?.nextAttemptAt.getTime()).toBe(t0.getTime() + HOUR);

    // And a third: it replaces the held one (the latest state), due at the same time.
    const third = invite("lea@example.com", "drei", new Date(t0.getTime() + 20 * 60_000));
    expect(third.held).toBe(true);
    expect(row(second.mail.id)).toBeUndefined();
    expect(row(third.mail.id)?.nextAttemptAt.getTime()).toBe(t0.getTime() + HOUR);
    expect(pendingTo("lea@example.com")).toEqual([
      ["eins", expect.any(Number)],
      ["drei", t0.getTime() + HOUR],
    ]);

    // Once the held one is due (sent at t0 + 1 h), the next waits for the hour after it.
    const fourth = invite("lea@example.com", "vier", new Date(t0.getTime() + HOUR + 60_000));
    expect(fourth.held).toBe(true);
    expect(row(fourth.mail.id)?.nextAttemptAt.getTime()).toBe(t0.getTime() + 2 * HOUR);
    expect(row(third.mail.id)).toBeDefined();

    // Another address has its own budget; an hour after the last one, the next goes at once.
    expect(invite("max@example.com", "max", new Date(t0.getTime() + 30 * 60_000)).held).toBe(false);
    expect(invite("lea@example.com", "fünf", new Date(t0.getTime() + 3 * HOUR)).held).toBe(false);
    expect(countToday("mails-held", new Date(t0.getTime() + 3 * HOUR))).toBe(3);
  });
});
