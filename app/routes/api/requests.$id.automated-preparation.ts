import { runAutomatedPreparation } from "~/server/ai/request-ai.server";
import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { requestIdOr404 } from "~/server/requests/api.server";
import type { Route } from "./+types/requests.$id.automated-preparation";

/**
 * POST /api/(admin/)requests/{id}/automated-preparation → {preparationData}. The body's
 * description/preparationFields/systemPrompt are ignored: the server uses the saved request and configuration.
 */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler bei der automatischen Vorbereitung", async () => {
    await requireApiAdmin(request);
    if (request.method !== "POST") return methodNotAllowed("POST");
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    const result = await runAutomatedPreparation(id);
    if (!result.ok)
      return Response.json(
        { success: false, error: result.error, message: result.error },
        { status: result.status },
      );
    return Response.json({
      success: true,
      preparationData: result.preparationData,
      filled: result.filled,
    });
  });
}

export const loader = () => methodNotAllowed("POST");
