import { LoginVerifyApiSchema } from "~/lib/two-factor";
import { loginStepJson, verifyLogin } from "~/server/accounts/login.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { clientIp } from "~/server/http/request-context.server";

/**
 * POST {challenge, code} or {challenge, recoveryCode} → the login answer {success, token, admin,
 * notices, message}. A challenge lives 5 minutes and works once (401 otherwise); a wrong code → 401; the 6th
 * wrong code of an admin within 15 minutes → 429 with Retry-After.
 */
export const action = publicApi(
  {
    fallback: "Login fehlgeschlagen - Ungültige Antwort vom Server",
    methods: ["POST"],
    refuseApiToken: true,
    methodFirst: true,
    schema: LoginVerifyApiSchema,
  },
  async ({ body, request, args }) => {
    const outcome = await verifyLogin(body, {
      userAgent: request.headers.get("user-agent"),
      ip: clientIp(args.context),
    });
    return loginStepJson(outcome);
  },
);

export const loader = onlyMethod("POST");
