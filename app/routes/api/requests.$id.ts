import { adminApi } from "~/server/api-route.server";
import { methodNotAllowed } from "~/server/http.server";
import { applyRequestUpdate, failureResponse, REQUEST_ID } from "~/server/requests/api.server";
import { deleteRequest } from "~/server/requests/manage.server";

/** PATCH /api/requests/{id} (changed fields + updatedAt; stale → 409) and DELETE — admins only. */
export const action = adminApi(
  { fallback: "Fehler beim Speichern!", id: REQUEST_ID },
  async ({ request, id, admin }) => {
    if (request.method === "PATCH") return applyRequestUpdate(request, id, admin);
    if (request.method === "DELETE") {
      const result = await deleteRequest(id, admin);
      return result.ok
        ? Response.json({ success: true, message: "Anfrage gelöscht." })
        : failureResponse(result);
    }
    return methodNotAllowed("PATCH, DELETE");
  },
);

export const loader = () => methodNotAllowed("PATCH, DELETE");
