import { and, desc, eq, sql } from "drizzle-orm";
import { type AffiliateCodeJson, generateAffiliateCode } from "~/lib/affiliate";
import { clientKey } from "~/lib/client-key";
import { affiliateCodes } from "~db/schema";
import { db } from "./platform/db.server";
import { affiliateCheckLimiter, consumeAll, withNetwork } from "./platform/rate-limit.server";
import type { Result } from "./platform/result.server";
import { type AuditActor, audit } from "./privacy/audit.server";

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

/**
 * A visitor's check of a code (`GET /api/affiliate-codes/validate/{code}` and the landing page's
 * `?code=`): counted per client (ADR 322: 30 in 10 minutes) and per network (ADR 357: 150), since
 * every answer tells whether a guessed code exists. Beyond it: 429 with the wait (the landing page
 * then shows no discount).
 */
export async function checkAffiliateCode(
  raw: string | undefined,
  clientIp: string,
): Promise<Result<AffiliateValidation>> {
  const limit = await consumeAll(
    withNetwork(affiliateCheckLimiter(), clientKey(clientIp), clientIp),
  );
  if (!limit.ok) return limit;
  return { ok: true, ...validateAffiliateCode(raw) };
}

const toJson = (row: typeof affiliateCodes.$inferSelect): AffiliateCodeJson => ({
  id: row.id,
  code: row.code,
  name: row.name,
  email: row.email,
  discountValue: row.discountValue,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
});

export function listAffiliateCodes(): AffiliateCodeJson[] {
  return db()
    .select()
    .from(affiliateCodes)
    .orderBy(desc(affiliateCodes.createdAt), desc(affiliateCodes.id))
    .all()
    .map(toJson);
}

const target = (code: string) => `Affiliate-Code ${code}`;

/**
 * Creates a code with a fresh unique value (a collision with the unique index is retried). Changes
 * to codes are audited (ADR 319) — the code and the discount, never the partner's name or address.
 */
export function createAffiliateCode(
  input: { name: string; email: string; discountValue: number },
  actor: AuditActor = "System",
): AffiliateCodeJson {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      const row = db()
        .insert(affiliateCodes)
        .values({ ...input, code: generateAffiliateCode(), isActive: true })
        .returning()
        .get();
      audit(actor, "affiliate-code-created", target(row.code), {
        id: row.id,
        rabatt: row.discountValue,
      });
      return toJson(row);
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_UNIQUE") throw error;
    }
  }
  throw new Error("Kein freier Affiliate-Code gefunden.");
}

export function setAffiliateActive(
  id: number,
  isActive: boolean,
  actor: AuditActor = "System",
): AffiliateCodeJson | null {
  const row = db()
    .update(affiliateCodes)
    .set({ isActive })
    .where(eq(affiliateCodes.id, id))
    .returning()
    .get();
  if (row) audit(actor, "affiliate-code-changed", target(row.code), { id, aktiv: isActive });
  return row ? toJson(row) : null;
}

export function deleteAffiliateCode(id: number, actor: AuditActor = "System"): boolean {
  const row = db()
    .delete(affiliateCodes)
    .where(eq(affiliateCodes.id, id))
    .returning({ code: affiliateCodes.code })
    .get();
  if (row) audit(actor, "affiliate-code-deleted", target(row.code), { id });
  return row !== undefined;
}
