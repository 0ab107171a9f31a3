import { TWO_FACTOR_MESSAGES, TwoFactorEnableSchema } from "~/lib/two-factor";
import { enableTwoFactor } from "~/server/accounts/two-factor/two-factor.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {code} → {success, recoveryCodes: [10]}: a code of the started enrolment turns 2FA on; the
 * recovery codes are shown this once. Other sessions of the admin end.
 */
export const action = adminApi(
  {
    fallback: "Die Zwei-Faktor-Anmeldung konnte nicht eingeschaltet werden.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    allowPendingEnrollment: true,
    schema: TwoFactorEnableSchema,
  },
  async ({ admin, body }) => {
    const result = await enableTwoFactor(admin, body.code);
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        recoveryCodes: result.recoveryCodes,
        message: TWO_FACTOR_MESSAGES.enabled,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST");
