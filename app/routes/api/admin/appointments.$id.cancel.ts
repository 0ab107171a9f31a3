import { adminApi, onlyMethod } from "~/server/api-route.server";
import { cancelAppointment } from "~/server/appointments/changes.server";
import { failureJson, scheduling } from "~/server/result.server";

/** POST /api/admin/appointments/{id}/cancel → the cancelled appointment (visitor mails, reminder dropped, slot freed: the same function as the visitor's link). */
export const action = adminApi(
  {
    fallback: "Fehler beim Absagen!",
    methods: ["POST"],
    id: { param: "id", notFound: "Termin nicht gefunden." },
  },
  async ({ id }) => {
    const result = await scheduling(() => cancelAppointment(id));
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, appointment: result.value });
  },
);

export const loader = onlyMethod("POST");
