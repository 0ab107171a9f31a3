import { TWO_FACTOR_MESSAGES, TwoFactorDisableSchema } from "~/lib/two-factor";
import { disableTwoFactor } from "~/server/accounts/two-factor/two-factor.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** POST {password, code} → {success, message}: turns 2FA off (a recovery code works as code too). */
export const action = adminApi(
  {
    fallback: "Die Zwei-Faktor-Anmeldung konnte nicht ausgeschaltet werden.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    schema: TwoFactorDisableSchema,
  },
  async ({ admin, body }) => {
    const result = await disableTwoFactor(admin, body.password, body.code);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, message: TWO_FACTOR_MESSAGES.disabled });
  },
);

export const loader = onlyMethod("POST");
