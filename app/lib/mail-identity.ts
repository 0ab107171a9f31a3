import { z } from "zod";

/**
 * The sender and legal details every mail carries (ADR 325): the registered Firma, the legal
 * form and what German law asks of that form's business letters (§35a GmbHG, §80 AktG, §37a HGB,
 * §125 HGB, §7(5) PartGG), the postal address, optional VAT ID, phone and e-mail, and two
 * sign-off lines ("du" for visitors, "Sie" for admins). Stored under `mailIdentity` in the
 * configuration. A saved identity may be incomplete (the go-live item names what is missing),
 * never malformed: every field is one line, bounded, without markup.
 */

export const LEGAL_FORMS = [
  "gmbh",
  "ug",
  "ag",
  "ek",
  "ohg",
  "kg",
  "gmbh-co-kg",
  "partg",
  "gbr",
  "egbr",
  "einzelunternehmen",
  "freiberufler",
] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

/** The choice as the settings card lists it (and the "Rechtsform" of the signature). */
export const LEGAL_FORM_LABELS: Record<LegalForm, string> = {
  gmbh: "GmbH",
  ug: "UG (haftungsbeschränkt)",
  ag: "AG",
  ek: "e.K. (eingetragene Kauffrau / eingetragener Kaufmann)",
  ohg: "OHG",
  kg: "KG",
  "gmbh-co-kg": "GmbH & Co. KG",
  partg: "PartG / PartG mbB",
  gbr: "GbR (nicht eingetragen)",
  egbr: "eGbR (eingetragene GbR)",
  einzelunternehmen: "Einzelunternehmen (ohne Handelsregister)",
  freiberufler: "Freiberufler",
};

/** The Rechtsform as written in the signature's register line. */
export const LEGAL_FORM_SHORT: Record<LegalForm, string> = {
  gmbh: "GmbH",
  ug: "UG (haftungsbeschränkt)",
  ag: "AG",
  ek: "e.K.",
  ohg: "OHG",
  kg: "KG",
  "gmbh-co-kg": "GmbH & Co. KG",
  partg: "Partnerschaftsgesellschaft",
  gbr: "GbR",
  egbr: "eGbR",
  einzelunternehmen: "Einzelunternehmen",
  freiberufler: "Freiberufler",
};

/** Every text field of the identity, in the order of the card. */
export const IDENTITY_FIELDS = [
  "companyName",
  "street",
  "postalCode",
  "city",
  "seat",
  "registerCourt",
  "registerNumber",
  "managingDirectors",
  "boardMembers",
  "boardChair",
  "supervisoryBoardChair",
  "generalPartner",
  "generalPartnerSeat",
  "generalPartnerRegisterCourt",
  "generalPartnerRegisterNumber",
  "generalPartnerDirectors",
  "vatId",
  "phone",
  "email",
  "signOffVisitor",
  "signOffAdmin",
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

/** The label of each field (the card, the go-live item's list of what is missing). */
export function identityFieldLabel(field: IdentityField, form: LegalForm | null): string {
  if (field === "seat" && form === "ek") return "Ort der Handelsniederlassung";
  if (field === "companyName" && (form === "einzelunternehmen" || form === "freiberufler"))
    return "Name (Vor- und Nachname)";
  return FIELD_LABELS[field];
}

const FIELD_LABELS: Record<IdentityField, string> = {
  companyName: "Firma (wie im Register eingetragen)",
  street: "Straße und Hausnummer",
  postalCode: "PLZ",
  city: "Ort",
  seat: "Sitz der Gesellschaft",
  registerCourt: "Registergericht",
  registerNumber: "Registernummer",
  managingDirectors: "Geschäftsführer (alle)",
  boardMembers: "Vorstand (alle Mitglieder)",
  boardChair: "Vorsitz des Vorstands",
  supervisoryBoardChair: "Vorsitz des Aufsichtsrats",
  generalPartner: "Persönlich haftende Gesellschafterin (Firma)",
  generalPartnerSeat: "Sitz der persönlich haftenden Gesellschafterin",
  generalPartnerRegisterCourt: "Registergericht der persönlich haftenden Gesellschafterin",
  generalPartnerRegisterNumber: "Registernummer der persönlich haftenden Gesellschafterin",
  generalPartnerDirectors: "Geschäftsführer der persönlich haftenden Gesellschafterin (alle)",
  vatId: "USt-IdNr.",
  phone: "Telefon",
  email: "E-Mail",
  signOffVisitor: "Grußzeile an Besucher (du)",
  signOffAdmin: "Grußzeile an Admins (Sie)",
};

const ADDRESS: IdentityField[] = ["companyName", "street", "postalCode", "city"];
const REGISTER: IdentityField[] = ["seat", "registerCourt", "registerNumber"];
const GENERAL_PARTNER: IdentityField[] = [
  "generalPartner",
  "generalPartnerSeat",
  "generalPartnerRegisterCourt",
  "generalPartnerRegisterNumber",
  "generalPartnerDirectors",
];

/**
 * What the law asks of the form's business letters (besides the legal form itself):
 * GmbH/UG §35a GmbHG (Sitz, Registergericht, -nummer, all Geschäftsführer), AG §80 AktG (all of the
 * Vorstand, the Aufsichtsrat's chair), e.K. §37a HGB (Ort der Handelsniederlassung, register),
 * OHG/KG §125 HGB, GmbH & Co. KG §125 HGB with the Komplementärin's §35a data, PartG §7(5)
 * PartGG, eGbR §707b BGB with §125 HGB; GbR, Einzelunternehmen, Freiberufler name and address.
 */
export const REQUIRED_FIELDS: Record<LegalForm, readonly IdentityField[]> = {
  gmbh: [...ADDRESS, ...REGISTER, "managingDirectors"],
  ug: [...ADDRESS, ...REGISTER, "managingDirectors"],
  ag: [...ADDRESS, ...REGISTER, "boardMembers", "supervisoryBoardChair"],
  ek: [...ADDRESS, ...REGISTER],
  ohg: [...ADDRESS, ...REGISTER],
  kg: [...ADDRESS, ...REGISTER],
  "gmbh-co-kg": [...ADDRESS, ...REGISTER, ...GENERAL_PARTNER],
  partg: [...ADDRESS, ...REGISTER],
  gbr: ADDRESS,
  egbr: [...ADDRESS, ...REGISTER],
  einzelunternehmen: ADDRESS,
  freiberufler: ADDRESS,
};

/** Shown (and printed) when filled, never required: "if there is one". */
export const OPTIONAL_FIELDS: Record<LegalForm, readonly IdentityField[]> = {
  gmbh: ["supervisoryBoardChair"],
  ug: ["supervisoryBoardChair"],
  ag: ["boardChair"],
  ek: [],
  ohg: [],
  kg: [],
  "gmbh-co-kg": [],
  partg: [],
  gbr: [],
  egbr: [],
  einzelunternehmen: [],
  freiberufler: [],
};

/** The fields every form shows: contact details and the two sign-off lines. */
export const COMMON_FIELDS: readonly IdentityField[] = [
  "vatId",
  "phone",
  "email",
  "signOffVisitor",
  "signOffAdmin",
];

/** Whether the card shows `field` for `form` (without a form: all of them). */
export function fieldApplies(field: IdentityField, form: LegalForm | null): boolean {
  if (!form || COMMON_FIELDS.includes(field)) return true;
  return REQUIRED_FIELDS[form].includes(field) || OPTIONAL_FIELDS[form].includes(field);
}

/** §37a HGB: the Firma of an e.K. carries "eingetragene Kauffrau/eingetragener Kaufmann" or a short form. */
const EK_SUFFIX = /(\be\.\s?K(?:fr|fm)?\.|eingetragene[r]?\s+Kauf(?:frau|mann))/i;

export const SIGN_OFF_DEFAULTS = {
  signOffVisitor: "Viele Grüße",
  signOffAdmin: "Mit freundlichen Grüßen",
} as const;

export const IDENTITY_MESSAGES = {
  oneLine: "Bitte nur eine Zeile eingeben.",
  noMarkup: "Bitte ohne spitze Klammern (< >) eingeben – HTML ist hier nicht erlaubt.",
  tooLong: (max: number) => `Höchstens ${max} Zeichen.`,
  legalForm: "Bitte wählen Sie eine Rechtsform aus der Liste.",
  registerNumber:
    "Bitte geben Sie die Registernummer wie im Register an, z. B. HRB 123456 (Buchstaben, Ziffern, Leerzeichen).",
  vatId: "Bitte geben Sie eine gültige USt-IdNr. an, z. B. DE123456789.",
  postalCode: "Bitte geben Sie eine gültige Postleitzahl an (z. B. 80331).",
  phone: "Bitte geben Sie eine gültige Telefonnummer an, z. B. +49 89 123456.",
  email: "Bitte geben Sie eine gültige E-Mail-Adresse an.",
  ekSuffix: "Die Firma eines e.K. muss den Zusatz „e.K.“ (oder „eingetragener Kaufmann“) tragen.",
} as const;

const M = IDENTITY_MESSAGES;

/** Control, format and line-separator characters: a line break anywhere is refused, not trimmed. */
const NOT_ONE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const MARKUP = /[<>]/;

/** One line of text: no line break, no markup, at most `max` characters (trimmed before counting). */
function line(max: number, extra?: { pattern: RegExp; message: string }) {
  return z
    .string()
    .superRefine((raw, ctx) => {
      const v = raw.trim();
      if (NOT_ONE_LINE.test(v)) ctx.addIssue({ code: "custom", message: M.oneLine });
      else if (MARKUP.test(v)) ctx.addIssue({ code: "custom", message: M.noMarkup });
      else if (v.length > max) ctx.addIssue({ code: "custom", message: M.tooLong(max) });
      else if (v && extra && !extra.pattern.test(v))
        ctx.addIssue({ code: "custom", message: extra.message });
    })
    .transform((v) => v.trim());
}

const REGISTER_NUMBER = { pattern: /^[\p{L}\d][\p{L}\d .\-/]*$/u, message: M.registerNumber };
const VAT_ID = { pattern: /^[A-Z]{2}[0-9A-Z+*. ]{2,14}$/, message: M.vatId };
const POSTAL_CODE = { pattern: /^[0-9A-Z][0-9A-Z -]{2,9}$/i, message: M.postalCode };
const PHONE = { pattern: /^[+\d(][\d\s\-./()]{4,39}$/, message: M.phone };
const EMAIL = { pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: M.email };

/** Each field's rule: one place for the configuration (API) and the settings form. */
export const IDENTITY_FIELD_RULES: Record<IdentityField, z.ZodType<string, string>> = {
  companyName: line(160),
  street: line(120),
  postalCode: line(10, POSTAL_CODE),
  city: line(80),
  seat: line(80),
  registerCourt: line(120),
  registerNumber: line(40, REGISTER_NUMBER),
  managingDirectors: line(300),
  boardMembers: line(300),
  boardChair: line(120),
  supervisoryBoardChair: line(120),
  generalPartner: line(160),
  generalPartnerSeat: line(80),
  generalPartnerRegisterCourt: line(120),
  generalPartnerRegisterNumber: line(40, REGISTER_NUMBER),
  generalPartnerDirectors: line(300),
  vatId: line(20, VAT_ID),
  phone: line(40, PHONE),
  email: line(254, EMAIL),
  signOffVisitor: line(120),
  signOffAdmin: line(120),
};

export type MailIdentity = { legalForm: LegalForm | null } & Record<IdentityField, string | null>;

export const EMPTY_MAIL_IDENTITY: MailIdentity = {
  legalForm: null,
  ...(Object.fromEntries(IDENTITY_FIELDS.map((f) => [f, null])) as Record<IdentityField, null>),
};

const stored = (rule: z.ZodType<string, string>) =>
  z
    .string()
    .nullish()
    .transform((v) => v ?? "")
    .pipe(rule)
    .transform((v) => (v === "" ? null : v));

/** `mailIdentity` in the configuration: empty = null (not entered yet). */
export const MailIdentitySchema = z.object({
  legalForm: z
    .union([z.enum(LEGAL_FORMS), z.literal(""), z.null()], { error: M.legalForm })
    .optional()
    .transform((v) => (v ? v : null)),
  ...(Object.fromEntries(IDENTITY_FIELDS.map((f) => [f, stored(IDENTITY_FIELD_RULES[f])])) as {
    [K in IdentityField]: ReturnType<typeof stored>;
  }),
});

/** The card's part of the settings form: every field a text ("" = not entered). */
export const MailIdentityFormSchema = z.object({
  legalForm: z.union([z.enum(LEGAL_FORMS), z.literal("")], { error: M.legalForm }).default(""),
  ...(Object.fromEntries(IDENTITY_FIELDS.map((f) => [f, IDENTITY_FIELD_RULES[f].default("")])) as {
    [K in IdentityField]: z.ZodDefault<z.ZodType<string, string>>;
  }),
});
export type MailIdentityFormInput = z.input<typeof MailIdentityFormSchema>;

/** What the card shows for a stored identity (the sign-off lines: their defaults until changed). */
export function mailIdentityFormDefaults(identity: MailIdentity): Record<string, string> {
  const out: Record<string, string> = { legalForm: identity.legalForm ?? "" };
  for (const field of IDENTITY_FIELDS) out[field] = identity[field] ?? "";
  out.signOffVisitor ||= SIGN_OFF_DEFAULTS.signOffVisitor;
  out.signOffAdmin ||= SIGN_OFF_DEFAULTS.signOffAdmin;
  return out;
}

/** The saved card as the stored identity (a sign-off equal to its default follows the default). */
export function mailIdentityFromForm(value: z.output<typeof MailIdentityFormSchema>): MailIdentity {
  const out = { ...EMPTY_MAIL_IDENTITY, legalForm: value.legalForm || null };
  for (const field of IDENTITY_FIELDS) out[field] = value[field] || null;
  for (const key of ["signOffVisitor", "signOffAdmin"] as const) {
    if (out[key] === SIGN_OFF_DEFAULTS[key]) out[key] = null;
  }
  return out;
}

/**
 * What the chosen form's business letters still lack, as the card's labels; the legal form
 * itself first when none is chosen. Empty: complete.
 */
export function missingIdentityFields(identity: MailIdentity): string[] {
  const form = identity.legalForm;
  if (!form) {
    return [
      "Rechtsform",
      ...ADDRESS.filter((f) => !identity[f]).map((f) => identityFieldLabel(f, null)),
    ];
  }
  const missing = REQUIRED_FIELDS[form]
    .filter((f) => !identity[f])
    .map((f) => identityFieldLabel(f, form));
  if (form === "ek" && identity.companyName && !EK_SUFFIX.test(identity.companyName))
    missing.push("Zusatz „e.K.“ in der Firma");
  return missing;
}
