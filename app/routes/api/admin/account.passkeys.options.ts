import { PasskeyRegisterOptionsSchema } from "~/lib/passkeys";
import { passkeyRegistrationOptions } from "~/server/accounts/passkeys/passkeys.server";
import { adminApi, noStoreJson, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {name, password} or {name, code} → {success, options}: the options for
 * `navigator.credentials.create` (WebAuthn), after the password or a current code. The challenge
 * lives 5 minutes and works once (`…/passkeys/verify`). Open while the 2FA rule asks for the
 * enrolment: a passkey satisfies it.
 */
export const action = adminApi(
  {
    fallback: "Der Passkey konnte nicht vorbereitet werden.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    allowPendingEnrollment: true,
    schema: PasskeyRegisterOptionsSchema,
  },
  async ({ admin, body }) => {
    const result = await passkeyRegistrationOptions(admin, body);
    if (!result.ok) return failureJson(result);
    return noStoreJson({ options: result.options });
  },
);

export const loader = onlyMethod("POST");
