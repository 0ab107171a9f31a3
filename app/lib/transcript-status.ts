/** States of a voice recording's transcription (ADR 272). */
export const TRANSCRIPT_STATUSES = ["pending", "done", "failed", "off"] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];
