import { adminApi, noStoreJson } from "~/server/api-route.server";
import { getStats } from "~/server/requests/queries.server";

/** GET /api/admin/stats → the dashboard's figures. */
export const loader = adminApi({ fallback: "Fehler beim Abrufen der Statistiken" }, () =>
  noStoreJson({ stats: getStats() }),
);
