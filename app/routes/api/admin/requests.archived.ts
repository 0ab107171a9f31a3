import { adminApi } from "~/server/api-route.server";
import { listAllRequests } from "~/server/requests/queries.server";

/** GET /api/admin/requests/archived → the archived requests (newest first). */
export const loader = adminApi({ fallback: "Fehler beim Abrufen der Requests" }, () =>
  Response.json(listAllRequests({ archived: true }), { headers: { "Cache-Control": "no-store" } }),
);
