import {
  jsonError,
  methodNotAllowed,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { requestIdOr404 } from "~/server/requests/api.server";
import { assignRequest } from "~/server/requests/manage.server";
import type { Route } from "./+types/requests.$id.assign";

/** POST /api/admin/requests/{id}/assign {action: add|remove, admin_id} → {actionPerformed, message} */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler bei der Zuweisung", async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") return methodNotAllowed("POST");
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    const body = await readJsonObject(request);
    if (!body.ok) return body.response;
    const { action, admin_id } = body.value;
    if (action !== "add" && action !== "remove") {
      return jsonError('action muss "add" oder "remove" sein.', 400);
    }
    const adminId = typeof admin_id === "number" ? admin_id : Number(admin_id);
    if (!Number.isInteger(adminId) || adminId <= 0)
      return jsonError("admin_id fehlt oder ist ungültig.", 400);
    const result = assignRequest(id, action, adminId, admin);
    return Response.json(
      {
        success: result.actionPerformed,
        actionPerformed: result.actionPerformed,
        message: result.message,
        request: result.request,
      },
      { status: result.status },
    );
  });
}
