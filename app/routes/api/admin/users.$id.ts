import { withStepUp } from "~/lib/step-up";
import { deleteAdmin, getAdminById } from "~/server/accounts/admins.server";
import { requireStepUp, stepUpJson } from "~/server/accounts/step-up-guard.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * DELETE {stepUp?: {password} | {code}}: removes another admin; assignments and invitations move
 * to the acting admin. Needs a step-up of the last 5 minutes or `stepUp` (ADR 315).
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Löschen des Admins",
    scope: "session",
    methods: ["DELETE"],
    id: { param: "id", notFound: "Admin nicht gefunden." },
    schema: withStepUp({}),
  },
  async ({ id, admin, body }) => {
    const target = getAdminById(id);
    if (target && target.id !== admin.id) {
      const proven = await requireStepUp(admin, body.stepUp);
      if (!proven.ok) return stepUpJson(proven);
    }
    const result = deleteAdmin(admin.id, id);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      message: "Admin gelöscht. Zuweisungen und Einladungen wurden auf Sie übertragen.",
      transferredAssignments: result.transferredAssignments,
      transferredInvitations: result.transferredInvitations,
    });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
