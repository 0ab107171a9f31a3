import { requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { listAllRequests } from "~/server/requests/queries.server";
import type { Route } from "./+types/requests.archived";

/** GET /api/admin/requests/archived → the archived requests (newest first). */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Requests", async () => {
    await requireApiAdmin(request);
    return Response.json(listAllRequests({ archived: true }), {
      headers: { "Cache-Control": "no-store" },
    });
  });
}
