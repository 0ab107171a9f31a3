import {
  jsonError,
  methodNotAllowed,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { failureResponse, requestIdOr404 } from "~/server/requests/api.server";
import { setArchived } from "~/server/requests/manage.server";
import type { Route } from "./+types/requests.$id.archive";

/** PATCH /api/admin/requests/{id}/archive {archived} */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Archivieren", async () => {
    await requireApiAdmin(request);
    if (request.method !== "PATCH" && request.method !== "POST") return methodNotAllowed("PATCH");
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    const body = await readJsonObject(request);
    if (!body.ok) return body.response;
    const archived = body.value.archived ?? true;
    if (typeof archived !== "boolean") return jsonError("archived muss true oder false sein.", 400);
    const result = setArchived(id, archived);
    if (!result.ok) return failureResponse(result);
    return Response.json({
      success: true,
      message: archived ? "Anfrage archiviert." : "Anfrage wiederhergestellt.",
      request: result.request,
    });
  });
}
