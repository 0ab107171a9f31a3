import { adminApi, onlyMethod } from "~/server/api-route.server";
import { refreshAppointment } from "~/server/appointments/appointments.server";
import { SchedulingError } from "~/server/appointments/scheduling/types";
import { jsonError } from "~/server/http.server";

const NOT_FOUND = "Termin nicht gefunden.";

/** POST /api/admin/appointments/{id}/refresh → the updated appointment. */
export const action = adminApi(
  {
    fallback: "Fehler beim Aktualisieren!",
    methods: ["POST"],
    id: { param: "id", notFound: NOT_FOUND },
  },
  async ({ id }) => {
    try {
      const appointment = await refreshAppointment(id);
      if (!appointment) return jsonError(NOT_FOUND, 404);
      return Response.json({ success: true, appointment });
    } catch (error) {
      if (error instanceof SchedulingError) return jsonError(error.message, error.status);
      throw error;
    }
  },
);

export const loader = onlyMethod("POST");
