import { cancelAppointment } from "~/server/appointments/changes.server";
import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { SchedulingError } from "~/server/scheduling/types";
import type { Route } from "./+types/appointments.$id.cancel";

/** POST /api/admin/appointments/{id}/cancel → the cancelled appointment (visitor mails, reminder dropped, slot freed: the same function as the visitor's link). */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Absagen!", async () => {
    await requireApiAdmin(request);
    if (request.method !== "POST") return methodNotAllowed("POST");
    const id = parseId(params.id);
    if (!id) return jsonError("Termin nicht gefunden.", 404);
    try {
      const appointment = await cancelAppointment(id);
      return Response.json({ success: true, appointment });
    } catch (error) {
      if (error instanceof SchedulingError) return jsonError(error.message, error.status);
      throw error;
    }
  });
}

export const loader = () => methodNotAllowed("POST");
