import { adminApi } from "~/server/http/api-route.server";
import { applyRequestUpdate, REQUEST_ID } from "~/server/requests/api.server";
import { RequestUpdateSchema } from "~/server/requests/manage.server";
import { adminJsonOf } from "~/server/requests/quarantine.server";
import { loadRequestJson } from "~/server/requests/serialize.server";
import { workItemsVisibleTo } from "~/server/requests/work-items.server";

export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Requests", scope: "requests:read", id: REQUEST_ID },
  ({ id, admin }) => {
    const found = loadRequestJson(id);
    return found
      ? Response.json(adminJsonOf(found, workItemsVisibleTo(admin)))
      : Response.json({ success: false, error: "Anfrage nicht gefunden." }, { status: 404 });
  },
);

/** PUT /api/admin/requests/{id}: status and/or preparationData (optional updatedAt → 409 when stale). */
export const action = adminApi(
  {
    fallback: "Fehler beim Speichern!",
    scope: "requests:write",
    methods: ["PUT", "PATCH"],
    allow: "GET, PUT, PATCH",
    id: REQUEST_ID,
    schema: RequestUpdateSchema,
  },
  ({ id, body, admin }) => applyRequestUpdate(id, body, admin),
);
