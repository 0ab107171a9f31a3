import { and, eq, sql } from "drizzle-orm";
import { affiliateCodes } from "~db/schema";
import { db } from "./db.server";

export type AffiliateValidation = { valid: boolean; discountValue: number; code?: string };

/** Active codes only, case-insensitive; an unknown code is simply not valid. */
export function validateAffiliateCode(raw: string | null | undefined): AffiliateValidation {
  const code = (raw ?? "").trim().toUpperCase();
  if (!code || code.length > 64) return { valid: false, discountValue: 0 };
  const row = db()
    .select()
    .from(affiliateCodes)
    .where(and(sql`upper(${affiliateCodes.code}) = ${code}`, eq(affiliateCodes.isActive, true)))
    .get();
  return row
    ? { valid: true, discountValue: row.discountValue, code: row.code.toUpperCase() }
    : { valid: false, discountValue: 0 };
}
