import type { RequestJson } from "~/lib/request-json";
import { assignNextInTurn } from "../assignment/fair-assignment.server";
import { notifyNewRequest } from "../mail/notifications.server";
import { kickTranscription } from "../transcription/jobs.server";
import { emitWebhook } from "../webhooks/deliveries.server";
import { sendReceipt } from "./receipt.server";

/**
 * The side effects of an accepted new request, in one place: the team's notification mail, the
 * `request.created` webhooks and the visitor's receipt. A submission runs it once; a request held
 * in the spam quarantine runs it once when an admin releases it. (The AI summary is a background
 * job that picks up every request without a summary.) A failure of one effect never fails the
 * saved request. At a release whose held booking lost its slot (`bookingGone`, ADR 355) the receipt
 * offers a new booking. The transcription job (pending since the submission) is woken too: a
 * released request's recording is transcribed now (ADR 272). With "Faire Verteilung" on, the
 * request is first assigned to the next admin in turn (ADR 353), so the mails and webhooks name them.
 */
export async function runNewRequestFlow(
  request: RequestJson,
  release: { bookingGone?: boolean } = {},
): Promise<void> {
  const turn = assignNextInTurn(request.id);
  const created = turn ? { ...request, assigned_to: [turn.adminId] } : request;
  if (created.audioPath) kickTranscription();
  try {
    notifyNewRequest(created);
  } catch (error) {
    console.warn("Benachrichtigung zur neuen Anfrage fehlgeschlagen:", error);
  }
  emitWebhook({ event: "request.created", data: created }, String(created.id), created.id);
  // The visitor's receipt (one per address per 24 h).
  await sendReceipt(created.id, release).catch((error) =>
    console.warn(
      "Eingangsbestätigung fehlgeschlagen:",
      error instanceof Error ? error.message : error,
    ),
  );
}
