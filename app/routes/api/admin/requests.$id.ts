import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { applyRequestUpdate, requestIdOr404 } from "~/server/requests/api.server";
import { loadRequestJson } from "~/server/requests/serialize.server";
import type { Route } from "./+types/requests.$id";

export function loader({ request, params }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Requests", async () => {
    await requireApiAdmin(request);
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    const found = loadRequestJson(id);
    return found
      ? Response.json(found)
      : Response.json({ success: false, error: "Anfrage nicht gefunden." }, { status: 404 });
  });
}

/** PUT /api/admin/requests/{id}: status and/or preparationData (optional updatedAt → 409 when stale). */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Speichern!", async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "PUT" && request.method !== "PATCH")
      return methodNotAllowed("GET, PUT, PATCH");
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    return applyRequestUpdate(request, id, admin);
  });
}
