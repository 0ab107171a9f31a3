import { PASSKEY_MESSAGES, PasskeyRemoveSchema } from "~/lib/passkeys";
import { removePasskey } from "~/server/accounts/passkeys/passkeys.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * DELETE {password} or {code} → {success, message}: removes one of the calling admin's passkeys
 * (audited, mailed; the other sessions end).
 */
export const action = adminApi(
  {
    fallback: "Der Passkey konnte nicht entfernt werden.",
    scope: "session",
    methods: ["DELETE"],
    id: { param: "id", notFound: PASSKEY_MESSAGES.notFound },
    schema: PasskeyRemoveSchema,
  },
  async ({ admin, id, body }) => {
    const result = await removePasskey(admin, id, body);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, message: PASSKEY_MESSAGES.removed(result.name) });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
