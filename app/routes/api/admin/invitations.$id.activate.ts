import { withStepUp } from "~/lib/step-up";
import { activateInvitation, listInvitations } from "~/server/accounts/invitations.server";
import { requireStepUp, stepUpJson } from "~/server/accounts/step-up-guard.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {stepUp?: {password} | {code}} → {success, adminData: {username, password}, message}: the
 * password is shown only here. Needs a step-up of the last 5 minutes or `stepUp` (ADR 315).
 */
export const action = adminApi(
  {
    fallback: "Fehler beim direkten Freischalten",
    scope: "session",
    methods: ["POST"],
    id: { param: "id", notFound: "Einladung nicht gefunden." },
    schema: withStepUp({}),
  },
  async ({ id, admin, body }) => {
    if (listInvitations().some((i) => i.id === id)) {
      const proven = await requireStepUp(admin, body.stepUp);
      if (!proven.ok) return stepUpJson(proven);
    }
    const result = await activateInvitation(id, admin.id);
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        adminData: result.adminData,
        message: `Admin ${result.adminData.username} wurde direkt freigeschaltet.`,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST", { admin: true });
