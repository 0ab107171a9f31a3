import { readAppointmentQuery } from "~/lib/appointments";
import { listAppointments } from "~/server/appointment-list.server";
import { requireApiAdmin, withApiFallback } from "~/server/auth.server";
import type { Route } from "./+types/appointments";

/** GET /api/admin/appointments?page&limit&filter&sort&search&status → {appointments, pagination} */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Termine", async () => {
    await requireApiAdmin(request);
    const result = listAppointments(readAppointmentQuery(new URL(request.url).searchParams));
    return Response.json(
      { success: true, ...result },
      { headers: { "Cache-Control": "no-store" } },
    );
  });
}
