// The fields a visitor types into the contact form (ADR 312): one home for their names, limits and
// messages. Read by the schema (request-form.ts), the live counter and the submission hook (both in
// the landing page's initial JavaScript: no Zod here) and, on the server, by the write path: each
// name is also the key of its `requests` column, which the submission writes and the erasure blanks.

export type ContactFieldSpec = {
  /** The label of the field's input. */
  label: string;
  /** Fewest characters after trimming; 0 = optional. */
  min: number;
  /** Most characters after trimming (also the input's maxLength). */
  max: number;
  /** Said when it is missing (default "<label> ist erforderlich"). */
  required?: string;
  /** Said below `min` characters (default "Mindestens <min> Zeichen"). */
  tooShort?: string;
  /**
   * A field beyond the spec's five: the form renders it as one more input below the project
   * description, in the order of this table (the five have their own places in the form).
   */
  input?: { type?: "text" | "url" | "tel" | "email"; autoComplete?: string };
};

/** The spec's minimum of the company description (the live counter "n/20 Zeichen (mindestens)"). */
const COMPANY_MIN = 20;

/** The contact form's typed fields, in the order they appear. */
export const CONTACT_FIELDS = {
  name: { label: "Name", min: 1, max: 200 },
  email: { label: "E-Mail", min: 1, max: 254 },
  phone: { label: "Telefon", min: 5, max: 50, required: "Telefonnummer ist erforderlich" },
  companyDescription: {
    label: "Beschreibe dein Unternehmen",
    min: COMPANY_MIN,
    max: 5000,
    required: "Unternehmensbeschreibung ist erforderlich",
    tooShort: `Bitte beschreibe dein Unternehmen mit mindestens ${COMPANY_MIN} Zeichen`,
  },
  description: { label: "Deine Projektidee (optional)", min: 0, max: 20_000 },
} as const satisfies Record<string, ContactFieldSpec>;

export type ContactField = keyof typeof CONTACT_FIELDS;

/** What is derived from a table of fields (a test derives it from a table with one more entry). */
export function contactFieldsOf<T extends Record<string, ContactFieldSpec>>(fields: T) {
  type Name = keyof T & string;
  const names = Object.keys(fields) as Name[];
  const spec = (name: Name): ContactFieldSpec => fields[name];
  return {
    /** The names, in the form's order (the same in the page form and POST /api/requests). */
    CONTACT_FIELD_NAMES: names,
    isContactField: (name: string): name is Name => Object.hasOwn(fields, name),
    /** What a field says when it is missing. */
    requiredMessage: (name: Name) => spec(name).required ?? `${spec(name).label} ist erforderlich`,
    /** What a field says below its minimum. */
    tooShortMessage: (name: Name) => spec(name).tooShort ?? `Mindestens ${spec(name).min} Zeichen`,
    /** The fields the form renders generically (beyond the spec's five), in order. */
    EXTRA_CONTACT_FIELDS: names.filter((name) => spec(name).input),
    /** An empty value per field (the form's state before anything is typed). */
    emptyContactValues: () =>
      Object.fromEntries(names.map((name) => [name, ""])) as Record<Name, string>,
  };
}

export const {
  CONTACT_FIELD_NAMES,
  isContactField,
  requiredMessage,
  tooShortMessage,
  EXTRA_CONTACT_FIELDS,
  emptyContactValues,
} = contactFieldsOf(CONTACT_FIELDS);

/** What a field says above its maximum. */
export const tooLongMessage = (max: number) => `Höchstens ${max} Zeichen`;
