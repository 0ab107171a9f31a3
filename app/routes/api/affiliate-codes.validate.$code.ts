import { checkAffiliateCode } from "~/server/affiliates.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * GET /api/affiliate-codes/validate/{code} → { valid, discountValue } (active codes, any case);
 * 429 + Retry-After past 30 checks per client in 10 minutes.
 */
export const loader = publicApi({ fallback: "Fehler bei der Code-Prüfung" }, async ({ args }) => {
  const result = await checkAffiliateCode(args.params.code, clientIp(args.context));
  if (!result.ok) return failureJson(result, { "Cache-Control": "no-store" });
  return Response.json(
    { valid: result.valid, discountValue: result.discountValue },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const action = onlyMethod("GET");
