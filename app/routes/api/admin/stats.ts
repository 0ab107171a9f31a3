import { adminApi, noStoreJson } from "~/server/api-route.server";
import { conversionStats } from "~/server/dashboard/conversion.server";
import { getStats } from "~/server/requests/queries.server";

/** GET /api/admin/stats → the dashboard's figures (and its conversion charts' numbers). */
export const loader = adminApi({ fallback: "Fehler beim Abrufen der Statistiken" }, () =>
  noStoreJson({ stats: getStats(), conversion: conversionStats() }),
);
