import { adminApi } from "~/server/api-route.server";
import { asAdminJson } from "~/server/requests/quarantine.server";
import { listAllRequests } from "~/server/requests/queries.server";

/** GET /api/admin/requests/archived → the archived requests (newest first). */
export const loader = adminApi({ fallback: "Fehler beim Abrufen der Requests" }, () =>
  Response.json(asAdminJson(listAllRequests({ archived: true })), {
    headers: { "Cache-Control": "no-store" },
  }),
);
