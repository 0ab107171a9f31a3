import { eq } from "drizzle-orm";
import type { RequestMessageJson } from "~/lib/request-message";
import type { TranscriptStatus } from "~/lib/transcript-status";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import type { RequestRow } from "./column-registry.server";
import { messagesOf } from "./messages.server";
import { inIds } from "./serialize.server";

/**
 * What only admins see of a request besides the spec's JSON (ADR 272): the transcript of the
 * voice recording with its status, and the thread of messages to the lead. Added by
 * `asAdminJson` only — never in webhooks, the CSV or the public answer (ADR 272, 273).
 */
export type AdminExtras = {
  voiceTranscript: string | null;
  /** null without a recording. */
  voiceTranscriptStatus: TranscriptStatus | null;
  messages: RequestMessageJson[];
};

export function adminExtrasOf(ids: number[]): Map<number, AdminExtras> {
  const out = new Map<number, AdminExtras>();
  if (!ids.length) return out;
  const threads = messagesOf(ids);
  const rows = db()
    .select({
      id: requests.id,
      hasAudio: requests.audioKey,
      transcript: requests.voiceTranscript,
      status: requests.voiceTranscriptStatus,
    })
    .from(requests)
    .where(inIds(requests.id, ids))
    .all();
  for (const row of rows) {
    out.set(
      row.id,
      extrasOfRow(
        {
          audioKey: row.hasAudio,
          voiceTranscript: row.transcript,
          voiceTranscriptStatus: row.status,
        },
        threads.get(row.id),
      ),
    );
  }
  return out;
}

/** The extras of a row already read (the API list, admin-list.server.ts) with its thread. */
export const extrasOfRow = (
  row: Pick<RequestRow, "audioKey" | "voiceTranscript" | "voiceTranscriptStatus">,
  messages: RequestMessageJson[] = [],
): AdminExtras => ({
  voiceTranscript: row.voiceTranscript,
  voiceTranscriptStatus: row.audioKey ? (row.voiceTranscriptStatus ?? "off") : null,
  messages,
});

const NONE: AdminExtras = { voiceTranscript: null, voiceTranscriptStatus: null, messages: [] };
export const extrasOr = (extras: AdminExtras | undefined) => extras ?? NONE;

/** The transcript of one request's recording (the AI's input), or null. */
export const voiceTranscriptOf = (id: number): string | null =>
  db()
    .select({ transcript: requests.voiceTranscript })
    .from(requests)
    .where(eq(requests.id, id))
    .get()?.transcript ?? null;
