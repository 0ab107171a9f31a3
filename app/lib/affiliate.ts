import { z } from "zod";

export const FILL_ALL_FIELDS = "Bitte füllen Sie alle Felder aus!";
export const DELETE_AFFILIATE_MESSAGE = "Möchten Sie diesen Affiliate-Code wirklich löschen?";

/** Create form and POST /api/affiliate-codes: name, email, discount 1–100 %. */
export const AffiliateCreateSchema = z.object({
  name: z.string({ error: FILL_ALL_FIELDS }).trim().min(1, FILL_ALL_FIELDS).max(200),
  email: z
    .string({ error: FILL_ALL_FIELDS })
    .trim()
    .min(1, FILL_ALL_FIELDS)
    .pipe(z.email("Bitte geben Sie eine gültige E-Mail-Adresse ein!")),
  // An empty discount is a missing field (spec message), not a 0 outside 1–100.
  discountValue: z.preprocess(
    (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
    z.coerce
      .number({ error: FILL_ALL_FIELDS })
      .int("Der Rabatt muss eine ganze Zahl sein.")
      .min(1, "Der Rabatt muss zwischen 1 und 100 % liegen.")
      .max(100, "Der Rabatt muss zwischen 1 und 100 % liegen."),
  ),
});

/** PATCH /api/affiliate-codes/{id} and the panel's toggle (its "1"/"0" read by `formFlag`). */
export const AffiliateToggleSchema = z.object({
  isActive: z.boolean({ error: "isActive muss true oder false sein." }),
});

/** Letters and digits without look-alikes (no 0/O, 1/I/L). */
export const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** A short upper-case code, e.g. "K7M3QX", from the given random source. */
export function generateAffiliateCode(
  length = 8,
  random: (n: number) => number = (n) => Math.floor(Math.random() * n),
) {
  let code = "";
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[random(CODE_ALPHABET.length)];
  return code;
}

/** The spec's affiliate code JSON: id, code, name, email, discountValue, isActive, createdAt. */
export type AffiliateCodeJson = {
  id: number;
  code: string;
  name: string;
  email: string;
  discountValue: number;
  isActive: boolean;
  createdAt: string;
};
