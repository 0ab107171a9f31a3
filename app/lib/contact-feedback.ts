// Pure helpers of the contact form's feedback (what blocks the submit, the error summary, which
// messages a field shows). No Zod here: this module is in the landing page's initial JavaScript.
import { CONTACT_FIELD_NAMES, type ContactField } from "./contact-fields";

export const ERROR_SUMMARY_TITLE = "Bitte prüfe deine Angaben";
export const COMPANY_MIN_REACHED = "Mindestlänge erreicht";

/** Joins German list items: "a", "a und b", "a, b und c". */
export function joinGerman(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} und ${items.at(-1)}`;
}

/**
 * Why the submit button is disabled (the spec: name, e-mail and phone filled, no phone error), as a
 * sentence for its `aria-describedby` hint; null when it may be sent.
 */
export function submitBlockedReason(
  values: { name: string; email: string; phone: string },
  phoneInvalid: boolean,
): string | null {
  const missing: string[] = [];
  if (!values.name.trim()) missing.push("dein Name");
  if (!values.email.trim()) missing.push("deine E-Mail-Adresse");
  if (!values.phone.trim()) missing.push("deine Telefonnummer");
  else if (phoneInvalid) missing.push("eine gültige Telefonnummer");
  if (!missing.length) return null;
  return `Zum Absenden ${missing.length === 1 ? "fehlt" : "fehlen"} noch ${joinGerman(missing)}.`;
}

/** One entry per invalid field (its first message), in the form's order, for the error summary. */
export function errorSummaryEntries(
  errors: Record<string, string[] | undefined>,
): { field: ContactField; message: string }[] {
  const entries: { field: ContactField; message: string }[] = [];
  for (const field of CONTACT_FIELD_NAMES) {
    const message = errors[field]?.[0];
    if (message) entries.push({ field, message });
  }
  return entries;
}

/**
 * The messages shown under a field. The company description shows its message (missing, too short,
 * too long) under the red counter like every other field, linked by aria-describedby: the counter
 * alone says the length, not what is wrong (QA: the message was only in the summary).
 */
export function fieldMessages(
  _field: ContactField,
  errors: string[] | undefined,
  _value: string,
): string[] | undefined {
  return errors?.length ? errors : undefined;
}
