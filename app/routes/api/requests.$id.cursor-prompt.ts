import { z } from "zod";
import { runCodingPrompt } from "~/server/ai/request-ai.server";
import {
  methodNotAllowed,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { requestIdOr404 } from "~/server/requests/api.server";
import type { Route } from "./+types/requests.$id.cursor-prompt";

const Body = z.object({ preparationData: z.record(z.string(), z.string()).optional() }).catch({});

/** POST /api/(admin/)requests/{id}/cursor-prompt → {prompt}: Claude when configured, else the template. */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Generieren des Prompts", async () => {
    await requireApiAdmin(request);
    if (request.method !== "POST") return methodNotAllowed("POST");
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    const body = await readJsonObject(request);
    if (!body.ok) return body.response;
    const result = await runCodingPrompt(id, Body.parse(body.value));
    if (!result.ok)
      return Response.json(
        { success: false, error: result.error, message: result.error },
        { status: result.status },
      );
    return Response.json({ success: true, prompt: result.prompt, source: result.source });
  });
}

export const loader = () => methodNotAllowed("POST");
