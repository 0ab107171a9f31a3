import { PasskeyLoginOptionsSchema } from "~/lib/passkeys";
import { noStoreJson, onlyMethod, publicApi } from "~/server/api-route.server";
import { passkeyLoginOptions } from "~/server/passkeys/passkey-login.server";
import { failureJson } from "~/server/result.server";

/**
 * POST {} → {success, options} for `navigator.credentials.get` with any passkey of this site (login
 * without password); POST {challenge} (the password step's) → the options with that admin's
 * passkeys (the second step). The WebAuthn challenge lives 5 minutes and works once.
 */
export const action = publicApi(
  {
    fallback: "Die Anmeldung mit Passkey ist fehlgeschlagen.",
    methods: ["POST"],
    refuseApiToken: true,
    methodFirst: true,
    schema: PasskeyLoginOptionsSchema,
  },
  async ({ body }) => {
    const result = await passkeyLoginOptions(body);
    if (!result.ok) return failureJson(result);
    return noStoreJson({ options: result.options });
  },
);

export const loader = onlyMethod("POST");
