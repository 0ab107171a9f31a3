import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { personExportResponse } from "~/server/privacy/person-export.server";
import { REQUEST_ID } from "~/server/requests/api.server";

/**
 * GET /api/admin/requests/{id}/export[?mit=<id>…]: ZIP with the request's data and that of the
 * requests with the same e-mail or phone the admin added (`mit`, one by one).
 */
export const loader = adminApi(
  { fallback: "Fehler beim Exportieren!", scope: "session", id: REQUEST_ID },
  ({ id, admin, request }) => personExportResponse(id, admin, new URL(request.url)),
);

export const action = onlyMethod("GET");
