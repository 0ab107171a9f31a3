/** The configured privacy note with `{monate}` replaced by the retention period. */
export function privacyNoteText(template: string, months: number): string {
  return template.replaceAll("{monate}", String(months));
}
