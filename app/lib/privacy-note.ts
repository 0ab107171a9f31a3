/** The configured privacy note with `{monate}` replaced by the retention period. */
export function privacyNoteText(template: string, months: number): string {
  return template.replaceAll("{monate}", String(months));
}

/**
 * The privacy note's sentence while transcription is on (ADR 272): who receives the
 * recording and what is sent. Null processor: nothing is added (nothing leaves the machine).
 */
export function withTranscriptionNote(text: string, processor: string | null): string {
  if (!processor) return text;
  return `${text} Deine Sprachnachricht wird zur Verschriftlichung an ${processor} übermittelt – nur die Aufnahme, ohne Name und Kontaktdaten.`;
}
