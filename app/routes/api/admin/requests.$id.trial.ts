import { TrialSchema } from "~/lib/trial";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { deliverTrial, trialMessage } from "~/server/pipeline/trial.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { adminJsonOf } from "~/server/requests/quarantine.server";

/**
 * POST /api/admin/requests/{id}/trial { url, message? } → 201: the trial version goes to the lead
 * as a message of the request's thread; the promise is recorded, the stage moves (ADR 348).
 * Without SMTP 409, as for messages.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Liefern der Testversion",
    scope: "trials:write",
    methods: ["POST"],
    id: REQUEST_ID,
    schema: TrialSchema,
  },
  async ({ id, body, admin }) => {
    const result = await deliverTrial(id, admin, body);
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        message: trialMessage(result.kept),
        kept: result.kept,
        thread: result.message,
        request: adminJsonOf(result.request),
      },
      { status: 201 },
    );
  },
);

export const loader = onlyMethod("POST", { admin: true });
