import { RescheduleSchema, rescheduleByAdmin } from "~/server/appointments/admin-changes.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { adminActor } from "~/server/privacy/audit.server";

/**
 * POST /api/admin/appointments/{id}/reschedule `{ startTime }` → the moved built-in booking: the
 * same availability and the same function as the card and the visitor's link (the visitor gets
 * the updated invite with the next SEQUENCE), audited.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Verschieben!",
    scope: "appointments:write",
    methods: ["POST"],
    id: { param: "id", notFound: "Termin nicht gefunden." },
    schema: RescheduleSchema,
  },
  async ({ id, body, admin }) => {
    const result = await rescheduleByAdmin(adminActor(admin.id), id, body.startTime);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, appointment: result.value });
  },
);

export const loader = onlyMethod("POST");
