import { ResetPasswordApiSchema } from "~/lib/auth-forms";
import { onlyMethod, publicApi } from "~/server/api-route.server";
import { resetPassword } from "~/server/password-reset.server";
import { clientIp } from "~/server/request-context.server";
import { failureJson } from "~/server/result.server";

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
