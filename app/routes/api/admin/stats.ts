import { conversionStats } from "~/server/dashboard/conversion.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { getStats } from "~/server/requests/queries.server";

/**
 * GET /api/admin/stats → the dashboard's figures (and its conversion charts' numbers). An API
 * token never reaches users (issue 27): its answer leaves out the admin and invitation counts.
 */
export const loader = adminApi({ fallback: "Fehler beim Abrufen der Statistiken" }, ({ admin }) => {
  const { admins, activeAdmins, awaitingActivation, pendingInvitations, ...leads } = getStats();
  const stats = admin.tokenHash
    ? { ...leads, admins, activeAdmins, awaitingActivation, pendingInvitations }
    : leads;
  return noStoreJson({ stats, conversion: conversionStats() });
});
