import { AccountPatchSchema } from "~/lib/account-form";
import { updateAccount } from "~/server/accounts/account.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** GET → {success, admin}: the calling admin's own account. */
export const loader = adminApi(
  { fallback: "Fehler beim Laden Ihres Kontos", scope: "session" },
  ({ admin }) => {
    const { tokenHash: _hidden, ...visible } = admin;
    return noStoreJson({ admin: visible });
  },
);

/**
 * PATCH {username?, email?} → 200 {success, admin, message} when applied; 202 {…, pendingEmail}
 * when (with SMTP) the new address must first be confirmed through the link mailed to it.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Speichern Ihres Kontos",
    scope: "session",
    methods: ["PATCH"],
    allow: "GET, PATCH",
    schema: AccountPatchSchema,
  },
  async ({ admin, body }) => {
    const result = await updateAccount(admin.id, body);
    if (!result.ok) return failureJson(result);
    const { ok: _ok, status, ...payload } = result;
    return Response.json({ success: true, ...payload }, { status });
  },
);
