import { ForgotPasswordSchema } from "~/lib/auth-forms";
import { requestPasswordReset } from "~/server/accounts/password-reset.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";

/** POST {email} → {success, message}: neutral whether or not the account exists (public). */
export const action = publicApi(
  {
    fallback: "Fehler beim Anfordern des Reset-Links",
    methods: ["POST"],
    schema: ForgotPasswordSchema,
  },
  async ({ body, args }) => {
    const result = await requestPasswordReset(body.email, clientIp(args.context));
    if (!result.ok) {
      return jsonError(result.error, 429, {
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      });
    }
    return Response.json({ success: true, message: result.message });
  },
);

export const loader = onlyMethod("POST");
