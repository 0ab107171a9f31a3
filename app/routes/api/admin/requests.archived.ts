import { adminApi, noStoreJsonParts } from "~/server/http/api-route.server";
import { adminRequestsJsonParts } from "~/server/requests/admin-list.server";
import { listAllRequestIds } from "~/server/requests/queries.server";
import { workItemsVisibleTo } from "~/server/requests/work-items.server";

/** GET /api/admin/requests/archived → the archived requests (newest first). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Requests", scope: "requests:read" },
  ({ admin }) =>
    noStoreJsonParts(
      adminRequestsJsonParts(
        listAllRequestIds({ archived: true }),
        undefined,
        workItemsVisibleTo(admin),
      ),
    ),
);
