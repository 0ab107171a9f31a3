import { AffiliateCreateSchema } from "~/lib/affiliate";
import { createAffiliateCode, listAffiliateCodes } from "~/server/affiliates.server";
import { adminApi } from "~/server/http/api-route.server";

/** GET /api/(admin/)affiliate-codes → array (admins only). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Affiliate-Codes", scope: "codes:read" },
  () => Response.json(listAffiliateCodes(), { headers: { "Cache-Control": "no-store" } }),
);

/** POST {name, email, discountValue} → the created code. */
export const action = adminApi(
  {
    fallback: "Fehler beim Erstellen des Affiliate-Codes!",
    scope: "codes:write",
    methods: ["POST"],
    allow: "GET, POST",
    schema: AffiliateCreateSchema,
  },
  ({ body, admin }) => {
    const created = createAffiliateCode(body, admin);
    return Response.json(
      {
        success: true,
        message: `Affiliate-Code erfolgreich erstellt! ${created.code}`,
        code: created.code,
        affiliateCode: created,
      },
      { status: 201 },
    );
  },
);
