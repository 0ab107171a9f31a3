import { refreshAppointment } from "~/server/appointments/appointments.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

const NOT_FOUND = "Termin nicht gefunden.";

/** POST /api/admin/appointments/{id}/refresh → the updated appointment. */
export const action = adminApi(
  {
    fallback: "Fehler beim Aktualisieren!",
    scope: "appointments:write",
    methods: ["POST"],
    id: { param: "id", notFound: NOT_FOUND },
  },
  async ({ id }) => {
    const result = await refreshAppointment(id);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, appointment: result.value });
  },
);

export const loader = onlyMethod("POST");
