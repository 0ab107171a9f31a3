import { adminApi } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { RequestUpdateSchema, setArchived } from "~/server/requests/manage.server";

/** PATCH /api/admin/requests/{id}/archive {archived} (default true). */
export const action = adminApi(
  {
    fallback: "Fehler beim Archivieren",
    scope: "requests:write",
    methods: ["PATCH", "POST"],
    allow: "PATCH",
    id: REQUEST_ID,
    schema: RequestUpdateSchema.pick({ archived: true }),
  },
  ({ id, body, admin }) => {
    const archived = body.archived ?? true;
    const result = setArchived(id, archived, admin);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      message: archived ? "Anfrage archiviert." : "Anfrage wiederhergestellt.",
      request: result.request,
    });
  },
);
