import { APPOINTMENT_SORTS, TIME_FILTERS } from "~/lib/appointments";
import { listAppointments } from "~/server/appointment-list.server";
import { requireApiAdmin, withApiFallback } from "~/server/auth.server";
import type { Route } from "./+types/appointments";

/** GET /api/admin/appointments?page&limit&filter&sort&search&status → {appointments, pagination} */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Termine", async () => {
    await requireApiAdmin(request);
    const p = new URL(request.url).searchParams;
    const filter = TIME_FILTERS.find((f) => f === p.get("filter")) ?? "all";
    const sort = APPOINTMENT_SORTS.find((s) => s === p.get("sort")) ?? "newest";
    const result = listAppointments({
      page: Math.max(1, Number.parseInt(p.get("page") ?? "1", 10) || 1),
      limit: Math.min(100, Math.max(1, Number.parseInt(p.get("limit") ?? "10", 10) || 10)),
      filter,
      sort,
      statuses: p
        .getAll("status")
        .flatMap((s) => s.split(","))
        .map((s) => s.toUpperCase()),
      search: (p.get("search") ?? "").slice(0, 200),
    });
    return Response.json(
      { success: true, ...result },
      { headers: { "Cache-Control": "no-store" } },
    );
  });
}
