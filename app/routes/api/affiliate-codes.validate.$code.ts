import { validateAffiliateCode } from "~/server/affiliates.server";
import type { Route } from "./+types/affiliate-codes.validate.$code";

/** GET /api/affiliate-codes/validate/{code} → { valid, discountValue } (active codes, any case). */
export function loader({ params }: Route.LoaderArgs) {
  const result = validateAffiliateCode(params.code);
  return Response.json(
    { valid: result.valid, discountValue: result.discountValue },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = () =>
  Response.json({ error: "Methode nicht erlaubt" }, { status: 405, headers: { Allow: "GET" } });
