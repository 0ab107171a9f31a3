import { ResetPasswordApiSchema } from "~/lib/auth-forms";
import { resetPassword } from "~/server/accounts/password-reset.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureJson } from "~/server/platform/result.server";

/** POST {token, newPassword} → {success, message}; single use; every session of the admin ends. */
export const action = publicApi(
  {
    fallback: "Fehler beim Zurücksetzen des Passworts",
    methods: ["POST"],
    schema: ResetPasswordApiSchema,
  },
  async ({ body, args }) => {
    const result = await resetPassword(body.token, body.newPassword, clientIp(args.context));
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, message: result.message });
  },
);

export const loader = onlyMethod("POST");
