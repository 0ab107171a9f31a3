import { withStepUp } from "~/lib/step-up";
import { AdminActiveSchema, getAdminById, setAdminActive } from "~/server/accounts/admins.server";
import { requireStepUp, stepUpJson } from "~/server/accounts/step-up-guard.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {activate?: boolean, stepUp?: {password} | {code}} → {success, admin, message}; without
 * `activate` the state flips. Needs a step-up of the last 5 minutes or `stepUp` (ADR 315): 403
 * `stepUpRequired` otherwise.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Ändern des Admin-Status",
    scope: "session",
    methods: ["POST"],
    id: { param: "id", notFound: "Admin nicht gefunden." },
    schema: withStepUp(AdminActiveSchema.shape),
  },
  async ({ id, admin, body }) => {
    const { activate, stepUp } = body;
    const current = getAdminById(id);
    if (!current) return jsonError("Admin nicht gefunden.", 404);
    if (current.id !== admin.id) {
      const proven = await requireStepUp(admin, stepUp);
      if (!proven.ok) return stepUpJson(proven);
    }
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
