import { z } from "zod";
import { attributionShape } from "./attribution";

/** Field names of the contact form (the same names in the page form and POST /api/requests). */
export { ALTCHA_FIELD } from "./altcha";
export { HONEYPOT_FIELD } from "./honeypot";

export const requestFormMessages = {
  nameRequired: "Name ist erforderlich",
  emailRequired: "E-Mail ist erforderlich",
  emailInvalid: "Bitte gib eine gültige E-Mail-Adresse ein",
  phoneRequired: "Telefonnummer ist erforderlich",
  phoneFormat: "Ungültiges Format. Mindestens 5 Zeichen (z.B. +49 123 456789, 0123 456789-1234)",
  companyRequired: "Unternehmensbeschreibung ist erforderlich",
  companyTooShort: "Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen",
  tooLong: (max: number) => `Höchstens ${max} Zeichen`,
} as const;

export const COMPANY_DESCRIPTION_MIN = 20;
export const PHONE_MAX = 50;
/** A plus or a digit, then digits, spaces, hyphens, dots or parentheses; 5 to 50 characters. */
export const PHONE_PATTERN = /^[+\d][\d\s\-.()]{4,49}$/;

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

/** The one schema of the contact form: Conform on the client, parseWithZod in the action. */
export const RequestFormSchema = z.object({
  name: z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(200, m.tooLong(200)),
  email: z
    .string({ error: m.emailRequired })
    .trim()
    .max(254, m.tooLong(254))
    .pipe(z.email(m.emailInvalid)),
  phone: z
    .string({ error: m.phoneRequired })
    .trim()
    .min(1, { error: m.phoneRequired, abort: true })
    .refine((value) => PHONE_PATTERN.test(normalizePhone(value)), m.phoneFormat)
    .transform(normalizePhone),
  companyDescription: z
    .string({ error: m.companyRequired })
    .trim()
    .min(COMPANY_DESCRIPTION_MIN, m.companyTooShort)
    .max(5000, m.tooLong(5000)),
  description: z.string().trim().max(20_000, m.tooLong(20_000)).optional().default(""),
  affiliateCode: z.string().trim().max(64).optional(),
  ...attributionShape,
});

export type RequestFormInput = z.infer<typeof RequestFormSchema>;
