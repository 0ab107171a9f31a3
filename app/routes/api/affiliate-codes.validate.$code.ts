import { validateAffiliateCode } from "~/server/affiliates.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";

/** GET /api/affiliate-codes/validate/{code} → { valid, discountValue } (active codes, any case). */
export const loader = publicApi({ fallback: "Fehler bei der Code-Prüfung" }, ({ args }) => {
  const result = validateAffiliateCode(args.params.code);
  return Response.json(
    { valid: result.valid, discountValue: result.discountValue },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const action = onlyMethod("GET");
