import { eq } from "drizzle-orm";
import { z } from "zod";
import { formatRequestId } from "~/lib/format";
import { LOST_REASON_MAX, PIPELINE_MESSAGES, type Stage, stageById } from "~/lib/pipeline";
import type { RequestJson } from "~/lib/request-json";
import { requests } from "~db/schema";
import { transaction } from "../platform/db.server";
import { type Failure, failure, type Result } from "../platform/result.server";
import type { AuditActor } from "../privacy/audit.server";
import { NOT_FOUND } from "../requests/manage.server";
import { loadRequestJson } from "../requests/serialize.server";
import { pipeline } from "./config.server";
import { announceMove, nextUpdatedAt, type StageMove, writeMove } from "./move.server";

const STAGE_REQUIRED = "Bitte wählen Sie eine Phase.";

/**
 * The one schema of a stage move (ADR 345): the body of POST /api/admin/requests/{id}/stage and
 * the fields of the pages' stage forms (board card, list row, full-screen view).
 */
export const StageMoveSchema = z.object({
  stage: z
    .string({ error: STAGE_REQUIRED })
    .trim()
    .min(1, STAGE_REQUIRED)
    .max(64, PIPELINE_MESSAGES.stageUnknown),
  reason: z
    .string({ error: PIPELINE_MESSAGES.reasonUnknown })
    .trim()
    .max(LOST_REASON_MAX, PIPELINE_MESSAGES.reasonUnknown)
    .optional()
    .transform((v) => v || undefined),
});
export type StageMoveInput = z.infer<typeof StageMoveSchema>;

export type StageMoveResult = Result<{ request: RequestJson; moved: boolean; stage: Stage }>;

/**
 * An admin moves a request to a stage (board, list row, full-screen view, API): the stage must
 * be configured, a stage that asks for a reason needs one of the configured reasons. Moving to
 * the stage it is in changes nothing (`moved: false`).
 */
export function moveToStage(id: number, input: StageMoveInput, actor: AuditActor): StageMoveResult {
  const p = pipeline();
  const to = stageById(p, input.stage);
  if (!to) return failure(400, PIPELINE_MESSAGES.stageUnknown, "stage");
  if (to.askReason && !input.reason)
    return failure(400, PIPELINE_MESSAGES.reasonMissing(to.name), "reason");
  if (to.askReason && input.reason && !p.lostReasons.includes(input.reason))
    return failure(400, PIPELINE_MESSAGES.reasonUnknown, "reason");
  let move: StageMove | null = null;
  const refused = transaction((tx): Failure | null => {
    const row = tx.select().from(requests).where(eq(requests.id, id)).get();
    if (!row) return NOT_FOUND;
    move = writeMove(tx, row, to, {
      at: nextUpdatedAt(row),
      adminId: typeof actor === "string" ? null : actor.id,
      cause: "admin",
      reason: input.reason,
    });
    return null;
  });
  if (refused) return refused;
  // Assigned inside the transaction's callback (TypeScript cannot see that, hence the cast).
  const done = move as StageMove | null;
  if (done) announceMove(done, actor);
  const request = loadRequestJson(id);
  return request ? { ok: true, request, moved: done !== null, stage: to } : NOT_FOUND;
}

/** The toast after a move. */
export const movedMessage = (r: { moved: boolean; stage: Stage }, id: number) =>
  `Anfrage #${formatRequestId(id)} ist ${r.moved ? "jetzt" : "bereits"} in „${r.stage.name}“.`;
