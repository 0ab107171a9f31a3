import { PasskeyLoginOptionsSchema } from "~/lib/passkeys";
import { passkeyLoginOptions } from "~/server/accounts/passkeys/passkey-login.server";
import { noStoreJson, onlyMethod, publicApi } from "~/server/http/api-route.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {} → {success, options} for `navigator.credentials.get` with any passkey of this site (login
 * without password); POST {challenge} (the password step's) → the options with that admin's
 * passkeys (the second step). The WebAuthn challenge lives 5 minutes and works once; 429 with
 * Retry-After past the per-client limit or the cap of live anonymous challenges (ADR 292).
 */
export const action = publicApi(
  {
    fallback: "Die Anmeldung mit Passkey ist fehlgeschlagen.",
    methods: ["POST"],
    refuseApiToken: true,
    methodFirst: true,
    schema: PasskeyLoginOptionsSchema,
  },
  async ({ body, args }) => {
    const result = await passkeyLoginOptions(body, clientIp(args.context));
    if (!result.ok) return failureJson(result);
    return noStoreJson({ options: result.options });
  },
);

export const loader = onlyMethod("POST");
