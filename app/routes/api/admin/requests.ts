import { cleanAttributionValue } from "~/lib/attribution";
import { adminApi, noStoreJson } from "~/server/api-route.server";
import { listAllRequests } from "~/server/requests/queries.server";

/** GET /api/admin/requests[?filter=assigned-to-me][&source=…] → the active requests (newest first). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Requests" },
  ({ request, admin }) => {
    const params = new URL(request.url).searchParams;
    const mine = params.get("filter") === "assigned-to-me";
    return noStoreJson({
      requests: listAllRequests({
        archived: false,
        assignedTo: mine ? admin.id : undefined,
        source: cleanAttributionValue(params.get("source"), "source") ?? undefined,
      }),
    });
  },
);
