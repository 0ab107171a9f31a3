import { z } from "zod";
import { runCodingPrompt } from "~/server/ai/request-ai.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";

const Body = z.object({ preparationData: z.record(z.string(), z.string()).optional() }).catch({});

/** POST /api/(admin/)requests/{id}/cursor-prompt → {prompt}: Claude when configured, else the template. */
export const action = adminApi(
  {
    fallback: "Fehler beim Generieren des Prompts",
    scope: "requests:write",
    methods: ["POST"],
    id: REQUEST_ID,
    json: true,
  },
  async ({ id, body }) => {
    const result = await runCodingPrompt(id, Body.parse(body));
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, prompt: result.prompt, source: result.source });
  },
);

export const loader = onlyMethod("POST");
