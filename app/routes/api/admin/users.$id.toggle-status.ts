import { AdminActiveSchema, getAdminById, setAdminActive } from "~/server/accounts/admins.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { failureJson } from "~/server/platform/result.server";

/** POST {activate?: boolean} → {success, admin, message}; without `activate` the state flips. */
export const action = adminApi(
  {
    fallback: "Fehler beim Ändern des Admin-Status",
    scope: "session",
    methods: ["POST"],
    id: { param: "id", notFound: "Admin nicht gefunden." },
    schema: AdminActiveSchema,
  },
  ({ id, admin, body }) => {
    const { activate } = body;
    const current = getAdminById(id);
    if (!current) return jsonError("Admin nicht gefunden.", 404);
    const result = setAdminActive(admin.id, id, activate ?? !current.isActive);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      admin: result.admin,
      message: result.admin.is_active ? "Admin aktiviert." : "Admin deaktiviert.",
    });
  },
);

export const loader = onlyMethod("POST", { admin: true });
