import { and, asc, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { TranscriptStatus } from "~/lib/transcript-status";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import { backoffMs, outboxWorker } from "../platform/outbox-retry.server";
import { type Failure, failure } from "../platform/result.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { NOT_FOUND } from "../requests/manage.server";
import { takeTranscription } from "../spam/budgets.server";
import { openStoredFile } from "../uploads/store.server";
import { TranscriptionError, transcribe, transcriptionConfigured } from "./client.server";

/**
 * The transcription job (ADR 272), durable like the AI summaries: its state lives in the
 * request row (voice_transcript_status pending → done | failed, attempts, due time), so a restart
 * picks up where it stopped. A failed attempt is retried with the outbox's backoff (30 s, 1 min,
 * 2 min …) until TRANSCRIPTION_MAX_ATTEMPTS, then the status is `failed` and waits for "Erneut
 * transkribieren". Quarantined requests wait (spam sends no recording anywhere) until released;
 * at most `transcription.dailyLimit` recordings leave per Berlin day.
 */
export const TRANSCRIPTION_MAX_ATTEMPTS = 4;
const BATCH = 5;

/** The status a new request's recording starts with (set at submission). */
export function initialTranscriptStatus(hasAudio: boolean): TranscriptStatus | null {
  if (!hasAudio) return null;
  return transcriptionConfigured() ? "pending" : "off";
}

/** One batch: every due, released, pending recording (up to BATCH) gets one attempt. */
async function transcribeDue(now: Date): Promise<{ attempted: number; sent: number }> {
  if (!transcriptionConfigured()) return { attempted: 0, sent: 0 };
  const due = db()
    .select({
      id: requests.id,
      audioKey: requests.audioKey,
      audioType: requests.audioType,
      attempts: requests.voiceTranscriptAttempts,
    })
    .from(requests)
    .where(
      and(
        eq(requests.voiceTranscriptStatus, "pending"),
        or(isNull(requests.voiceTranscriptDueAt), lte(requests.voiceTranscriptDueAt, now)),
        isNull(requests.quarantinedAt),
      ),
    )
    .orderBy(asc(requests.voiceTranscriptDueAt), asc(requests.id))
    .limit(BATCH)
    .all();
  let attempted = 0;
  let sent = 0;
  for (const row of due) {
    const file = row.audioKey ? await openStoredFile(row.audioKey) : null;
    if (!file) {
      // The recording is gone (deleted meanwhile): nothing to transcribe, ever.
      finish(row.id, { voiceTranscriptStatus: "failed" });
      continue;
    }
    // Today's budget used up: the rest wait for tomorrow without using up their attempts.
    if (!takeTranscription(now)) break;
    attempted++;
    try {
      const text = await transcribe(
        { stream: () => file.stream(), size: file.size, type: row.audioType ?? file.type },
        row.audioKey?.split(".")[1] ?? "webm",
      );
      finish(row.id, { voiceTranscriptStatus: "done", voiceTranscript: text });
      sent++;
    } catch (error) {
      if (!(error instanceof TranscriptionError)) throw error;
      const attempts = row.attempts + 1;
      if (attempts >= TRANSCRIPTION_MAX_ATTEMPTS)
        finish(row.id, { voiceTranscriptStatus: "failed" });
      else {
        db()
          .update(requests)
          .set({
            voiceTranscriptAttempts: attempts,
            voiceTranscriptDueAt: new Date(now.getTime() + backoffMs(attempts)),
          })
          .where(and(eq(requests.id, row.id), eq(requests.voiceTranscriptStatus, "pending")))
          .run();
      }
      console.warn(`Transkription von Anfrage ${row.id} fehlgeschlagen: ${error.message}`);
    }
  }
  return { attempted, sent };
}

/** Ends the run of a still pending recording (a retry started meanwhile is left alone). */
function finish(
  id: number,
  set: { voiceTranscriptStatus: "done" | "failed"; voiceTranscript?: string },
) {
  db()
    .update(requests)
    .set({ ...set, voiceTranscriptAttempts: 0, voiceTranscriptDueAt: null })
    .where(and(eq(requests.id, id), eq(requests.voiceTranscriptStatus, "pending")))
    .run();
}

const worker = outboxWorker({
  label: "Transkription",
  sendDue: transcribeDue,
  enabled: transcriptionConfigured,
});

/** Background task (boot): polls every 30 s while transcription is set up. */
export const transcriptionTask = {
  start: () => worker.start(30_000),
  stop: () => worker.stop(),
};

/** Wakes the worker (a new or released request, a retry). */
export const kickTranscription = () => worker.kick();

export const NO_RECORDING = "Diese Anfrage hat keine Sprachnachricht.";
export const TRANSCRIPTION_OFF =
  "Die Transkription ist nicht eingerichtet (TRANSCRIPTION_API_URL fehlt) – es wird nichts übertragen.";
export const TRANSCRIPTION_HELD =
  "Die Anfrage wartet auf die Spamprüfung – nach der Freigabe wird sie transkribiert.";

/**
 * "Erneut transkribieren": the recording goes back into the queue (pending, fresh attempts, due
 * now). The stored transcript stays until the new one replaces it.
 */
export function retranscribe(id: number): { ok: true } | Failure {
  const row = db()
    .select({
      audioKey: requests.audioKey,
      quarantinedAt: requests.quarantinedAt,
    })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  if (!row) return NOT_FOUND;
  if (!row.audioKey) return failure(409, NO_RECORDING);
  if (!transcriptionConfigured()) return failure(409, TRANSCRIPTION_OFF);
  if (row.quarantinedAt) return failure(409, TRANSCRIPTION_HELD);
  db()
    .update(requests)
    .set({
      voiceTranscriptStatus: "pending",
      voiceTranscriptAttempts: 0,
      voiceTranscriptDueAt: null,
    })
    .where(and(eq(requests.id, id), isNotNull(requests.audioKey)))
    .run();
  kickTranscription();
  return { ok: true };
}

registerTestHooks({ drainTranscriptions: (now?: Date) => worker.drain(now) });
