import { RecoveryCodesSchema, TWO_FACTOR_MESSAGES } from "~/lib/two-factor";
import { regenerateRecoveryCodes } from "~/server/accounts/two-factor/two-factor.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** POST {password} or {code} → {success, recoveryCodes: [10]}: new codes, the old ones die; mailed. */
export const action = adminApi(
  {
    fallback: "Die Wiederherstellungscodes konnten nicht erzeugt werden.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    schema: RecoveryCodesSchema,
  },
  async ({ admin, body }) => {
    const result = await regenerateRecoveryCodes(admin.id, body);
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        recoveryCodes: result.recoveryCodes,
        message: TWO_FACTOR_MESSAGES.regenerated,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST");
