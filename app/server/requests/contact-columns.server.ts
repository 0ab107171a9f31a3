import { CONTACT_FIELD_NAMES, type ContactField } from "~/lib/contact-fields";
import type { requests } from "~db/schema";

/**
 * The visitor's typed fields on their way into the database (ADR 312): each field of the contact
 * form (lib/contact-fields.ts) is stored in the `requests` column of the same key — written by the
 * submission, blanked by the erasure. A field without its column fails to compile here.
 */
type RequestInsert = typeof requests.$inferInsert;
type Assert<T extends true> = T;
export type EveryContactFieldIsAColumn = Assert<
  ContactField extends keyof RequestInsert ? true : false
>;

/** The typed values of a parsed submission, by column; a field left out is stored empty. */
export function typedColumns(
  value: Partial<Record<ContactField, string>>,
): Pick<RequestInsert, ContactField> {
  return Object.fromEntries(CONTACT_FIELD_NAMES.map((name) => [name, value[name] ?? ""])) as Record<
    ContactField,
    string
  >;
}
