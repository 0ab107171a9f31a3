import { z } from "zod";
import { attributionShape } from "./attribution";
import {
  CONTACT_FIELD_NAMES,
  CONTACT_FIELDS,
  type ContactField,
  type ContactFieldSpec,
  requiredMessage,
  tooLongMessage,
  tooShortMessage,
} from "./contact-fields";

/** Field names of the contact form (the same names in the page form and POST /api/requests). */
export { ALTCHA_FIELD } from "./altcha";
export { HONEYPOT_FIELD } from "./honeypot";

const { phone: PHONE } = CONTACT_FIELDS;

/** The schema's German messages (the spec's texts; lengths from lib/contact-fields.ts). */
export const requestFormMessages = {
  nameRequired: requiredMessage("name"),
  emailRequired: requiredMessage("email"),
  emailInvalid: "Bitte gib eine gültige E-Mail-Adresse ein",
  phoneRequired: requiredMessage("phone"),
  phoneFormat: `Ungültiges Format. Mindestens ${PHONE.min} Zeichen (z.B. +49 123 456789, 0123 456789-1234)`,
  companyRequired: requiredMessage("companyDescription"),
  companyTooShort: tooShortMessage("companyDescription"),
  tooLong: tooLongMessage,
} as const;

export const PHONE_MAX = PHONE.max;
/** A plus or a digit, then digits, spaces, hyphens, dots or parentheses; 5 to 50 characters. */
export const PHONE_PATTERN = new RegExp(
  `^[+\\d][\\d\\s\\-.()]{${PHONE.min - 1},${PHONE.max - 1}}$`,
);

/** Trimmed, whitespace collapsed, capped at 50 characters. */
export function normalizePhone(raw: string): string {
  return raw.trim().replace(/\s+/g, " ").slice(0, PHONE_MAX);
}

export function phoneError(raw: string): string | null {
  const phone = normalizePhone(raw);
  if (!phone) return requestFormMessages.phoneRequired;
  return PHONE_PATTERN.test(phone) ? null : requestFormMessages.phoneFormat;
}

const m = requestFormMessages;

/**
 * A text field by its entry in the table: trimmed, its minimum (0: optional, empty when left
 * out) and maximum with the entry's German messages.
 */
function textRule(name: ContactField) {
  const { min, max } = CONTACT_FIELDS[name] as ContactFieldSpec;
  if (min === 0) return z.string().trim().max(max, tooLongMessage(max)).optional().default("");
  const short = min > 1 ? tooShortMessage(name) : requiredMessage(name);
  return z
    .string({ error: requiredMessage(name) })
    .trim()
    .min(min, short)
    .max(max, tooLongMessage(max));
}

/** The rules that say more than a length: the e-mail's form, the phone's pattern. */
const specialRules = {
  email: z
    .string({ error: m.emailRequired })
    .trim()
    .max(CONTACT_FIELDS.email.max, m.tooLong(CONTACT_FIELDS.email.max))
    .pipe(z.email(m.emailInvalid)),
  phone: z
    .string({ error: m.phoneRequired })
    .trim()
    .min(1, { error: m.phoneRequired, abort: true })
    .refine((value) => PHONE_PATTERN.test(normalizePhone(value)), m.phoneFormat)
    .transform(normalizePhone),
};

type TextRule = ReturnType<typeof textRule>;
type ContactRules = Omit<Record<ContactField, TextRule>, keyof typeof specialRules> &
  typeof specialRules;

/** Every typed field of the table: its special rule, else the text rule of its entry. */
const contactRules = Object.fromEntries(
  CONTACT_FIELD_NAMES.map((name) => [
    name,
    specialRules[name as keyof typeof specialRules] ?? textRule(name),
  ]),
) as unknown as ContactRules;

/**
 * The one schema of the contact form: Conform on the client, parseWithZod in the action. Its
 * typed fields come from lib/contact-fields.ts (a new one is an entry there, ADR 312).
 */
export const RequestFormSchema = z.object({
  ...contactRules,
  affiliateCode: z.string().trim().max(64).optional(),
  ...attributionShape,
});

export type RequestFormInput = z.infer<typeof RequestFormSchema>;
