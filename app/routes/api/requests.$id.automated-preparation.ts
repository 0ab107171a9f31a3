import { runAutomatedPreparation } from "~/server/ai/request-ai.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";

/**
 * POST /api/(admin/)requests/{id}/automated-preparation → {preparationData}. The body's
 * description/preparationFields/systemPrompt are ignored: the server uses the saved request and configuration.
 */
export const action = adminApi(
  {
    fallback: "Fehler bei der automatischen Vorbereitung",
    scope: "requests:write",
    methods: ["POST"],
    id: REQUEST_ID,
  },
  async ({ id, admin }) => {
    const result = await runAutomatedPreparation(id, admin);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      preparationData: result.preparationData,
      filled: result.filled,
    });
  },
);

export const loader = onlyMethod("POST");
