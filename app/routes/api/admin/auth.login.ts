import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { TWO_FACTOR_MESSAGES } from "~/lib/two-factor";
import { loginJson, loginWithCredentials } from "~/server/accounts/login.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { firstError, jsonError } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";

/**
 * POST {username, password} → {success, token, admin, notices, message}; the token works as Bearer;
 * `notices` are German texts the admin must hear at this login (the page shows them as a toast). For an
 * admin with 2FA → {success: false, mfaRequired: true, challenge, message} and no session: the
 * challenge goes to `POST /api/admin/auth/login/verify` with a code (ADR 256).
 */
export const action = publicApi(
  {
    fallback: "Login fehlgeschlagen - Ungültige Antwort vom Server",
    methods: ["POST"],
    refuseApiToken: true,
    json: true,
  },
  async ({ request, body, args }) => {
    const outcome = await loginWithCredentials(request, clientIp(args.context), body);
    switch (outcome.kind) {
      case "ok":
        return loginJson(outcome);
      case "mfa":
        return Response.json(
          {
            success: false,
            mfaRequired: true,
            challenge: outcome.challenge,
            // What the second step accepts: "code" (TOTP or recovery code), "passkey".
            methods: Object.entries(outcome.methods)
              .filter(([, on]) => on)
              .map(([name]) => name),
            message: outcome.methods.code
              ? TWO_FACTOR_MESSAGES.codeStep
              : PASSKEY_MESSAGES.codeStepPasskey,
          },
          { headers: { "Cache-Control": "no-store" } },
        );
      case "invalid": {
        const fieldErrors = outcome.submission.error ?? {};
        return jsonError(firstError(fieldErrors), 400, { fieldErrors });
      }
      case "limited":
        return jsonError(outcome.message, 429, {
          headers: { "Retry-After": String(outcome.retryAfterSeconds) },
        });
      default:
        return jsonError(outcome.message, outcome.kind === "inactive" ? 403 : 401);
    }
  },
);

export const loader = onlyMethod("POST");
