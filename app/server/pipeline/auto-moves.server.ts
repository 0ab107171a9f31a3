import { eq } from "drizzle-orm";
import { mayMoveAutomatically, STAGE_IDS, stageBefore, stageById } from "~/lib/pipeline";
import { requests } from "~db/schema";
import { transaction } from "../platform/db.server";
import { requestsWithAppointment } from "../requests/serialize.server";
import { pipeline } from "./config.server";
import {
  announceMove,
  type MoveCause,
  nextUpdatedAt,
  type StageMove,
  writeMove,
} from "./move.server";

/**
 * The moves that happen by themselves (ADR 345): a booked demo → "Demo gebucht", a delivered trial
 * → "Testversion geliefert" — only forward in the list and never out of a stage of "Done"
 * (Gewonnen, Verloren); a cancelled demo takes a request in "Demo gebucht" back to the stage
 * before it, unless another demo still stands. A held request (spam check) is not moved; its
 * release announces its booking and moves it then. A stage that was removed is skipped.
 */

function run(
  requestId: number,
  decide: (row: typeof requests.$inferSelect) => { stage: string; cause: MoveCause } | null,
): StageMove | null {
  let move: StageMove | null = null;
  transaction((tx) => {
    const row = tx.select().from(requests).where(eq(requests.id, requestId)).get();
    if (!row || row.quarantinedAt) return;
    const target = decide(row);
    const to = target && stageById(pipeline(), target.stage);
    if (!target || !to) return;
    move = writeMove(tx, row, to, { at: nextUpdatedAt(row), adminId: null, cause: target.cause });
  });
  const done = move as StageMove | null;
  if (done) announceMove(done, "System");
  return done;
}

/** Forward to `stage` (by id), if the rules allow it. */
export function moveForward(requestId: number, stage: string, cause: MoveCause) {
  return run(requestId, (row) =>
    mayMoveAutomatically(pipeline(), row.stage, row.status, stage) ? { stage, cause } : null,
  );
}

/** A cancelled demo: back from "Demo gebucht" to the stage before it, when no other demo stands. */
export function stepBackFromDemo(requestId: number) {
  return run(requestId, (row) => {
    if (row.stage !== STAGE_IDS.demo) return null;
    if (requestsWithAppointment([requestId]).length > 0) return null;
    const before = stageBefore(pipeline(), STAGE_IDS.demo);
    return before && before.status !== "Done"
      ? { stage: before.id, cause: "booking-cancelled" }
      : null;
  });
}

/**
 * Called by every rule that books or cancels an appointment, after the row is written (the same
 * place the appointment webhooks are announced from). Never throws: the booking is done already.
 */
export function moveOnAppointment(
  event: "appointment.booked" | "appointment.cancelled",
  requestId: number | null | undefined,
) {
  if (!requestId) return;
  try {
    if (event === "appointment.booked") moveForward(requestId, STAGE_IDS.demo, "booking");
    else stepBackFromDemo(requestId);
  } catch (error) {
    console.warn(
      "Phase nach Terminänderung nicht angepasst:",
      error instanceof Error ? error.message : error,
    );
  }
}
