import { deleteAppointment } from "~/server/appointments.server";
import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import type { Route } from "./+types/appointments.$id";

/** DELETE /api/admin/appointments/{id}: removes the cached row only. */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Löschen!", async () => {
    await requireApiAdmin(request);
    if (request.method !== "DELETE") return methodNotAllowed("DELETE");
    const id = parseId(params.id);
    if (!id || !deleteAppointment(id)) return jsonError("Termin nicht gefunden.", 404);
    return Response.json({ success: true, message: "Termin aus der Liste entfernt." });
  });
}

export const loader = () => methodNotAllowed("DELETE");
