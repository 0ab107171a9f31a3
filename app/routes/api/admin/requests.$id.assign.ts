import { adminApi } from "~/server/api-route.server";
import { jsonError } from "~/server/http.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { assignRequest } from "~/server/requests/manage.server";

/** POST /api/admin/requests/{id}/assign {action: add|remove, admin_id} → {actionPerformed, message} */
export const action = adminApi(
  { fallback: "Fehler bei der Zuweisung", methods: ["POST"], id: REQUEST_ID, json: true },
  ({ id, admin, body }) => {
    const { action, admin_id } = body;
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
  },
);
