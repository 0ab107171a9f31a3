import { and, eq, isNull } from "drizzle-orm";
import type { FollowUpAnswer } from "~/lib/follow-ups";
import { followUps } from "~db/schema";
import { db } from "../platform/db.server";

/**
 * The lead answered (a reply filed from the inbox) or a demo was booked: the request's open
 * follow-up is marked "Antwort erhalten" / "Termin gebucht" (ADR 351) and stays open until someone
 * finishes it. A leaf (database only), so the booking and the inbox paths can call it without an
 * import circle. Returns whether one was marked.
 */
export function markFollowUpAnswered(
  requestId: number,
  answer: FollowUpAnswer,
  now = new Date(),
): boolean {
  return (
    db()
      .update(followUps)
      .set({ answer, answeredAt: now })
      .where(and(eq(followUps.requestId, requestId), isNull(followUps.doneAt)))
      .run().changes > 0
  );
}
