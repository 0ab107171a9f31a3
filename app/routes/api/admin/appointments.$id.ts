import { adminApi, onlyMethod } from "~/server/api-route.server";
import { deleteAppointment } from "~/server/appointments/appointments.server";
import { jsonError } from "~/server/http.server";

const NOT_FOUND = "Termin nicht gefunden.";

/** DELETE /api/admin/appointments/{id}: removes the cached row only. */
export const action = adminApi(
  {
    fallback: "Fehler beim Löschen!",
    methods: ["DELETE"],
    id: { param: "id", notFound: NOT_FOUND },
  },
  ({ id }) =>
    deleteAppointment(id)
      ? Response.json({ success: true, message: "Termin aus der Liste entfernt." })
      : jsonError(NOT_FOUND, 404),
);

export const loader = onlyMethod("DELETE");
