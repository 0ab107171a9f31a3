import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { PASSKEY_MESSAGES, PasskeyRegisterVerifySchema } from "~/lib/passkeys";
import { registerPasskey } from "~/server/accounts/passkeys/passkeys.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {response} (the browser's answer to the options) → 201 {success, passkey, message}: the
 * passkey is saved, audited and mailed; the admin's other sessions end. 400 for a used, expired or
 * foreign challenge or a wrong origin.
 */
export const action = adminApi(
  {
    fallback: "Der Passkey konnte nicht gespeichert werden.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    allowPendingEnrollment: true,
    schema: PasskeyRegisterVerifySchema,
  },
  async ({ admin, body }) => {
    const result = await registerPasskey(
      admin,
      body.response as unknown as RegistrationResponseJSON,
    );
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        passkey: result.passkey,
        message: PASSKEY_MESSAGES.added(result.passkey.name),
      },
      { status: 201, headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST");
