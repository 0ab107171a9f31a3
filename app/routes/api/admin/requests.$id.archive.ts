import { adminApi } from "~/server/api-route.server";
import { jsonError } from "~/server/http.server";
import { failureResponse, REQUEST_ID } from "~/server/requests/api.server";
import { setArchived } from "~/server/requests/manage.server";

/** PATCH /api/admin/requests/{id}/archive {archived} */
export const action = adminApi(
  {
    fallback: "Fehler beim Archivieren",
    methods: ["PATCH", "POST"],
    allow: "PATCH",
    id: REQUEST_ID,
    json: true,
  },
  ({ id, body }) => {
    const archived = body.archived ?? true;
    if (typeof archived !== "boolean") return jsonError("archived muss true oder false sein.", 400);
    const result = setArchived(id, archived);
    if (!result.ok) return failureResponse(result);
    return Response.json({
      success: true,
      message: archived ? "Anfrage archiviert." : "Anfrage wiederhergestellt.",
      request: result.request,
    });
  },
);
