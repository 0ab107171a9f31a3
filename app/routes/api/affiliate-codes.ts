import { AffiliateCreateSchema } from "~/lib/affiliate";
import { fieldErrorsOf } from "~/lib/field-errors";
import { createAffiliateCode, listAffiliateCodes } from "~/server/affiliates.server";
import {
  jsonError,
  methodNotAllowed,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import type { Route } from "./+types/affiliate-codes";

/** GET /api/(admin/)affiliate-codes → array (admins only). */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Affiliate-Codes", async () => {
    await requireApiAdmin(request);
    return Response.json(listAffiliateCodes(), { headers: { "Cache-Control": "no-store" } });
  });
}

/** POST {name, email, discountValue} → the created code. */
export function action({ request }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Erstellen des Affiliate-Codes!", async () => {
    await requireApiAdmin(request);
    if (request.method !== "POST") return methodNotAllowed("GET, POST");
    const body = await readJsonObject(request);
    if (!body.ok) return body.response;
    const parsed = AffiliateCreateSchema.safeParse(body.value);
    if (!parsed.success) {
      return jsonError(
        parsed.error.issues[0]?.message ?? "Bitte füllen Sie alle Felder aus!",
        400,
        {
          fieldErrors: fieldErrorsOf(parsed.error),
        },
      );
    }
    const created = createAffiliateCode(parsed.data);
    return Response.json(
      {
        success: true,
        message: `Affiliate-Code erfolgreich erstellt! ${created.code}`,
        code: created.code,
        affiliateCode: created,
      },
      { status: 201 },
    );
  });
}
