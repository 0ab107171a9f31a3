import { cleanAttributionValue } from "~/lib/attribution";
import { requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { listAllRequests } from "~/server/requests/queries.server";
import type { Route } from "./+types/requests";

/** GET /api/admin/requests[?filter=assigned-to-me][&source=…] → the active requests (newest first). */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Requests", async () => {
    const admin = await requireApiAdmin(request);
    const params = new URL(request.url).searchParams;
    const mine = params.get("filter") === "assigned-to-me";
    const requests = listAllRequests({
      archived: false,
      assignedTo: mine ? admin.id : undefined,
      source: cleanAttributionValue(params.get("source"), "source") ?? undefined,
    });
    return Response.json({ success: true, requests }, { headers: { "Cache-Control": "no-store" } });
  });
}
