import { requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { conversionStats } from "~/server/dashboard/conversion.server";
import { getStats } from "~/server/requests/queries.server";
import type { Route } from "./+types/stats";

/** GET /api/admin/stats → the dashboard's figures (and its conversion charts' numbers). */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Statistiken", async () => {
    await requireApiAdmin(request);
    return Response.json(
      { success: true, stats: getStats(), conversion: conversionStats() },
      { headers: { "Cache-Control": "no-store" } },
    );
  });
}
