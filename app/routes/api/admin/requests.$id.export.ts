import { adminApi, onlyMethod } from "~/server/api-route.server";
import { personExportResponse } from "~/server/privacy/person-export.server";
import { REQUEST_ID } from "~/server/requests/api.server";

/** GET /api/admin/requests/{id}/export: ZIP with everything stored about that person (same e-mail). */
export const loader = adminApi(
  { fallback: "Fehler beim Exportieren!", id: REQUEST_ID },
  ({ id, admin }) => personExportResponse(id, admin),
);

export const action = onlyMethod("GET");
