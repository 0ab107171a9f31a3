import { z } from "zod";
import {
  listPasskeys,
  passkeyStatus,
  setPasskeyLogin,
} from "~/server/accounts/passkeys/passkeys.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * GET → {success, passkeys: [{id, name, createdAt, lastUsedAt}], passkeyLogin}: the calling admin's
 * passkeys and the switch "Passkey statt Passwort erlauben". PATCH {passkeyLogin} sets the switch.
 */
export const loader = adminApi(
  { fallback: "Die Passkeys konnten nicht geladen werden.", scope: "session", methods: ["GET"] },
  ({ admin }) => {
    const status = passkeyStatus(admin.id);
    return noStoreJson({ passkeys: status.list, passkeyLogin: status.loginAllowed });
  },
);

export const action = adminApi(
  {
    fallback: "Die Einstellung konnte nicht gespeichert werden.",
    scope: "session",
    methods: ["PATCH"],
    allow: "GET, PATCH",
    schema: z.object({
      passkeyLogin: z.boolean({ error: "passkeyLogin muss true oder false sein." }),
    }),
  },
  ({ admin, body }) => {
    const saved = setPasskeyLogin(admin, body.passkeyLogin);
    if (!saved.ok) return failureJson(saved);
    return noStoreJson({ passkeys: listPasskeys(admin.id), passkeyLogin: saved.on });
  },
);
