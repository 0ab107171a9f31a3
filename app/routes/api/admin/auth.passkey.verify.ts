import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { PasskeyLoginVerifySchema } from "~/lib/passkeys";
import { loginStepJson, verifyPasskey } from "~/server/accounts/login.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { clientIp } from "~/server/http/request-context.server";

/**
 * POST {response} or {challenge, response} → the login answer {success, token, admin, notices,
 * message}. Without `challenge` the passkey replaces password and code (when its admin allows it);
 * with the password step's `challenge` it replaces the code. A used or expired challenge, a wrong
 * origin or a removed passkey → 401; too many failures → 429 with Retry-After.
 */
export const action = publicApi(
  {
    fallback: "Login fehlgeschlagen - Ungültige Antwort vom Server",
    methods: ["POST"],
    refuseApiToken: true,
    methodFirst: true,
    schema: PasskeyLoginVerifySchema,
  },
  async ({ body, request, args }) => {
    const outcome = await verifyPasskey(
      {
        challenge: body.challenge,
        response: body.response as unknown as AuthenticationResponseJSON,
      },
      { userAgent: request.headers.get("user-agent"), ip: clientIp(args.context) },
      request,
    );
    return loginStepJson(outcome);
  },
);

export const loader = onlyMethod("POST");
