import { refreshAppointment } from "~/server/appointments.server";
import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { SchedulingError } from "~/server/scheduling/types";
import type { Route } from "./+types/appointments.$id.refresh";

/** POST /api/admin/appointments/{id}/refresh → the updated appointment. */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Aktualisieren!", async () => {
    await requireApiAdmin(request);
    if (request.method !== "POST") return methodNotAllowed("POST");
    const id = parseId(params.id);
    if (!id) return jsonError("Termin nicht gefunden.", 404);
    try {
      const appointment = await refreshAppointment(id);
      if (!appointment) return jsonError("Termin nicht gefunden.", 404);
      return Response.json({ success: true, appointment });
    } catch (error) {
      if (error instanceof SchedulingError) return jsonError(error.message, error.status);
      throw error;
    }
  });
}

export const loader = () => methodNotAllowed("POST");
