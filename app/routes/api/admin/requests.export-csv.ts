import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { requestsCsvResponse } from "~/server/privacy/csv-export.server";

/** GET /api/admin/requests/export.csv with the list's filters (tab, q, status, assignment, sort). */
export const loader = adminApi(
  { fallback: "Fehler beim Exportieren!", scope: "session" },
  ({ request, admin }) => requestsCsvResponse(new URL(request.url), admin),
);

export const action = onlyMethod("GET");
