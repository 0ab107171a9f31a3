import { adminApi } from "~/server/http/api-route.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { AssignSchema, assignRequest } from "~/server/requests/manage.server";

/** POST /api/admin/requests/{id}/assign {action: add|remove, admin_id} → {actionPerformed, message} */
export const action = adminApi(
  {
    fallback: "Fehler bei der Zuweisung",
    scope: "requests:write",
    methods: ["POST"],
    id: REQUEST_ID,
    schema: AssignSchema,
  },
  ({ id, admin, body }) => {
    const result = assignRequest(id, body.action, body.admin_id, admin);
    return Response.json(
      {
        success: result.ok,
        actionPerformed: result.ok,
        message: result.ok ? result.message : result.error,
        request: result.ok ? result.request : undefined,
      },
      { status: result.ok ? 200 : result.status },
    );
  },
);
