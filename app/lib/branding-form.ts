import { z } from "zod";
import { colorProblem } from "./brand-color";
import {
  BRANDING_TEXT_KEYS,
  type BrandingSettings,
  brandingDefaultsFor,
  type FaqEntry,
  URL_INVALID,
} from "./branding";
import { DEFAULT_PROMISES, type PromiseSettings } from "./promises";

/**
 * The "Erscheinungsbild und Inhalte" card of the settings form (ADR 268): every text shows its
 * current wording (today's default until changed); on save a text equal to its default, or empty,
 * is stored as null, so it follows the default. The logo has its own form (a file upload).
 */
const formText = (max: number) => z.string().max(max, `Höchstens ${max} Zeichen.`).default("");

const formUrl = z
  .string()
  .default("")
  .refine((v) => v.trim() === "" || /^https?:\/\/\S+$/i.test(v.trim()), URL_INVALID);

export const FAQ_QUESTION_REQUIRED = "Bitte geben Sie eine Frage ein.";
export const FAQ_ANSWER_REQUIRED = "Bitte geben Sie eine Antwort ein.";

export const BrandingFormSchema = z.object({
  name: formText(80).refine((v) => !/\p{Cc}/u.test(v), "Bitte nur eine Zeile eingeben."),
  privacyUrl: formUrl,
  imprintUrl: formUrl,
  primaryColor: z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      const problem = v.trim() ? colorProblem(v.trim()) : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  heroTitle: formText(200),
  heroSubtitle: formText(1000),
  promise: formText(200),
  successMessage: formText(1000),
  footerLine: formText(200),
  faq: z
    .array(
      z.object({
        question: z
          .string({ error: FAQ_QUESTION_REQUIRED })
          .trim()
          .min(1, FAQ_QUESTION_REQUIRED)
          .max(300),
        answer: z
          .string({ error: FAQ_ANSWER_REQUIRED })
          .trim()
          .min(1, FAQ_ANSWER_REQUIRED)
          .max(3000),
      }),
    )
    .max(50)
    .default([]),
});
export type BrandingFormValue = z.output<typeof BrandingFormSchema>;
export type BrandingFormInput = z.input<typeof BrandingFormSchema>;

/**
 * What the card shows: the stored texts or today's (for the configured promises, ADR 346), the
 * colour and links as stored (or empty).
 */
export function brandingFormDefaults(
  settings: BrandingSettings,
  promises: PromiseSettings = DEFAULT_PROMISES,
) {
  const brandingDefaults = brandingDefaultsFor(promises);
  return {
    name: settings.name ?? brandingDefaults.name,
    privacyUrl: settings.privacyUrl ?? "",
    imprintUrl: settings.imprintUrl ?? "",
    primaryColor: settings.primaryColor ?? "",
    heroTitle: settings.heroTitle ?? brandingDefaults.heroTitle,
    heroSubtitle: settings.heroSubtitle ?? brandingDefaults.heroSubtitle,
    promise: settings.promise ?? brandingDefaults.promise,
    successMessage: settings.successMessage ?? brandingDefaults.successMessage,
    footerLine: settings.footerLine ?? brandingDefaults.footerLine,
    faq: (settings.faq ?? brandingDefaults.faq).map((e) => ({ ...e })),
  } satisfies BrandingFormInput;
}

const sameFaq = (a: FaqEntry[], b: readonly FaqEntry[]) =>
  a.length === b.length &&
  a.every((e, i) => e.question === b[i].question && e.answer === b[i].answer);

/**
 * The saved card as `branding` settings (without the logo, which the caller keeps as stored). A
 * text equal to today's — for any of `promises` (the stored ones the form showed, the posted
 * ones) — is stored as null, so it keeps following the promises.
 */
export function brandingFromForm(
  value: BrandingFormValue,
  promises: PromiseSettings[] = [DEFAULT_PROMISES],
): Omit<BrandingSettings, "logo"> {
  const defaults = promises.map(brandingDefaultsFor);
  const texts = Object.fromEntries(
    BRANDING_TEXT_KEYS.map((key) => {
      const text = value[key].trim();
      return [key, text === "" || defaults.some((d) => text === d[key]) ? null : text];
    }),
  ) as Record<(typeof BRANDING_TEXT_KEYS)[number], string | null>;
  const orNull = (v: string) => (v.trim() ? v.trim() : null);
  return {
    ...texts,
    privacyUrl: orNull(value.privacyUrl),
    imprintUrl: orNull(value.imprintUrl),
    primaryColor: orNull(value.primaryColor)?.toLowerCase() ?? null,
    faq: defaults.some((d) => sameFaq(value.faq, d.faq)) ? null : value.faq,
  };
}
