import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { movedMessage, moveToStage, StageMoveSchema } from "~/server/pipeline/stages.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { adminJsonOf } from "~/server/requests/quarantine.server";

/**
 * POST /api/admin/requests/{id}/stage { stage, reason? } → moves the request to a stage of the
 * pipeline; its status becomes the stage's (ADR 345). The board's card, the list row and the
 * full-screen view call the same rule.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Verschieben der Anfrage",
    scope: "stages:write",
    methods: ["POST"],
    id: REQUEST_ID,
    schema: StageMoveSchema,
  },
  ({ id, body, admin }) => {
    const result = moveToStage(id, body, admin);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      moved: result.moved,
      message: movedMessage(result, id),
      request: adminJsonOf(result.request),
    });
  },
);

export const loader = onlyMethod("POST", { admin: true });
