import { adminApi, onlyMethod } from "~/server/api-route.server";
import { cancelAppointment } from "~/server/appointments/changes.server";
import { SchedulingError } from "~/server/appointments/scheduling/types";
import { jsonError } from "~/server/http.server";

/** POST /api/admin/appointments/{id}/cancel → the cancelled appointment (visitor mails, reminder dropped, slot freed: the same function as the visitor's link). */
export const action = adminApi(
  {
    fallback: "Fehler beim Absagen!",
    methods: ["POST"],
    id: { param: "id", notFound: "Termin nicht gefunden." },
  },
  async ({ id }) => {
    try {
      const appointment = await cancelAppointment(id);
      return Response.json({ success: true, appointment });
    } catch (error) {
      if (error instanceof SchedulingError) return jsonError(error.message, error.status);
      throw error;
    }
  },
);

export const loader = onlyMethod("POST");
