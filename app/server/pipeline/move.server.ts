import { eq, sql } from "drizzle-orm";
import { resolveStage, type Stage } from "~/lib/pipeline";
import type { RequestStatus } from "~/lib/request-status";
import { requestStatusHistory, requests } from "~db/schema";
import type { Db } from "../platform/db.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { loadRequestJson } from "../requests/serialize.server";
import { requestTarget } from "../requests/target.server";
import { emitWebhook } from "../webhooks/deliveries.server";
import { pipeline } from "./config.server";

/**
 * One move of a request between stages (ADR 345), the only writer of `requests.stage`: the
 * status follows the stage, the history gets one row (status and stage, reason, cause), a stage
 * past "New" keeps the first-contact promise. Callers run it inside their immediate transaction
 * (read the row, decide, write), so two parallel moves of one card are applied one after the
 * other, each with its own history row; `announceMove` does the audit and webhooks after commit.
 */

/** What moved a request: an admin (the board, a stage select, the status dropdown or API) or a rule. */
export type MoveCause = "admin" | "status" | "booking" | "booking-cancelled" | "trial";

export type StageMove = {
  requestId: number;
  historyId: number;
  from: Stage;
  to: Stage;
  fromStatus: RequestStatus;
  reason: string | null;
  cause: MoveCause;
  /** Held in the spam check: no webhooks (ADR 252). */
  quarantined: boolean;
};

type Row = typeof requests.$inferSelect;

/** updated_at only moves forward (conflict checks compare against it), also within one ms. */
export const nextUpdatedAt = (row: Pick<Row, "updatedAt">, now = Date.now()) =>
  new Date(Math.max(now, row.updatedAt.getTime() + 1));

/**
 * Moves `row` to `to` inside the caller's transaction; null when it is there already. `at` is the
 * row's new updated_at (the history row gets the same time: the status conflict check reads it).
 */
export function writeMove(
  tx: Db,
  row: Row,
  to: Stage,
  options: { at: Date; adminId: number | null; cause: MoveCause; reason?: string | null },
): StageMove | null {
  const from = resolveStage(pipeline(), row.stage, row.status);
  if (row.stage === to.id && row.status === to.status) return null;
  const reason = to.askReason ? (options.reason ?? null) : null;
  tx.update(requests)
    .set({
      stage: to.id,
      status: to.status,
      lostReason: reason,
      updatedAt: options.at,
      // A stage past "New" is a contact with the lead: the first-contact promise is kept (ADR 346).
      ...(to.status === "New"
        ? {}
        : { contactDoneAt: sql`coalesce(${requests.contactDoneAt}, ${options.at.getTime()})` }),
    })
    .where(eq(requests.id, row.id))
    .run();
  const history = tx
    .insert(requestStatusHistory)
    .values({
      requestId: row.id,
      fromStatus: row.status,
      toStatus: to.status,
      fromStage: row.stage,
      toStage: to.id,
      reason,
      cause: options.cause,
      adminId: options.adminId,
      changedAt: options.at,
    })
    .returning({ id: requestStatusHistory.id })
    .get();
  return {
    requestId: row.id,
    historyId: history.id,
    from,
    to,
    fromStatus: row.status,
    reason,
    cause: options.cause,
    quarantined: row.quarantinedAt !== null,
  };
}

/**
 * After the transaction: one audit entry per move ("status" when the status changed, else
 * "stage"; stage names and the reason, never lead data) and the webhooks —
 * `request.status_changed` as before when the status changed, `request.stage_changed` when the
 * stage did — unless the request is held in the spam check.
 */
export function announceMove(move: StageMove, actor: AuditActor) {
  const statusChanged = move.fromStatus !== move.to.status;
  const details = {
    ...(statusChanged ? { from: move.fromStatus, to: move.to.status } : {}),
    phase: { von: move.from.name, nach: move.to.name },
    ...(move.reason ? { grund: move.reason } : {}),
    ...(move.cause !== "admin" && move.cause !== "status"
      ? { anlass: CAUSE_WORDS[move.cause] }
      : {}),
  };
  audit(actor, statusChanged ? "status" : "stage", requestTarget(move.requestId), details);
  if (move.quarantined) return;
  const request = loadRequestJson(move.requestId);
  if (!request) return;
  if (statusChanged) {
    emitWebhook(
      { event: "request.status_changed", data: request, previousStatus: move.fromStatus },
      `history-${move.historyId}`,
      move.requestId,
    );
  }
  if (move.from.id !== move.to.id) {
    emitWebhook(
      {
        event: "request.stage_changed",
        data: request,
        previousStage: { id: move.from.id, name: move.from.name },
      },
      `history-${move.historyId}`,
      move.requestId,
    );
  }
}

const CAUSE_WORDS: Record<Exclude<MoveCause, "admin" | "status">, string> = {
  booking: "Demo gebucht",
  "booking-cancelled": "Demo abgesagt",
  trial: "Testversion geliefert",
};

/**
 * The first message to the lead keeps the first-contact promise (ADR 346); the first time counts.
 * Inside the caller's transaction.
 */
export function keepFirstContact(tx: Db, requestId: number, at: Date) {
  tx.update(requests)
    .set({ contactDoneAt: sql`coalesce(${requests.contactDoneAt}, ${at.getTime()})` })
    .where(eq(requests.id, requestId))
    .run();
}
