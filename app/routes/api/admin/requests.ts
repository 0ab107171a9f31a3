import { cleanAttributionValue } from "~/lib/attribution";
import { adminApi, noStoreJson } from "~/server/api-route.server";
import { asAdminJson } from "~/server/requests/quarantine.server";
import { listAllRequests } from "~/server/requests/queries.server";

/**
 * GET /api/admin/requests[?filter=assigned-to-me][&source=…] → the active requests (newest first),
 * without the quarantined ones; `?quarantined=true` lists those instead (ADR 252).
 */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Requests" },
  ({ request, admin }) => {
    const params = new URL(request.url).searchParams;
    const mine = params.get("filter") === "assigned-to-me";
    return noStoreJson({
      requests: asAdminJson(
        listAllRequests({
          archived: false,
          quarantined: params.get("quarantined") === "true",
          assignedTo: mine ? admin.id : undefined,
          source: cleanAttributionValue(params.get("source"), "source") ?? undefined,
        }),
      ),
    });
  },
);
