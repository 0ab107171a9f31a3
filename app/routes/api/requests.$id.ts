import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { applyRequestUpdate, failureResponse, requestIdOr404 } from "~/server/requests/api.server";
import { deleteRequest } from "~/server/requests/manage.server";
import type { Route } from "./+types/requests.$id";

/** PATCH /api/requests/{id} (changed fields + updatedAt; stale → 409) and DELETE — admins only. */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Speichern!", async () => {
    const admin = await requireApiAdmin(request);
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    if (request.method === "PATCH") return applyRequestUpdate(request, id, admin);
    if (request.method === "DELETE") {
      const result = await deleteRequest(id, admin);
      return result.ok
        ? Response.json({ success: true, message: "Anfrage gelöscht." })
        : failureResponse(result);
    }
    return methodNotAllowed("PATCH, DELETE");
  });
}

export const loader = () => methodNotAllowed("PATCH, DELETE");
