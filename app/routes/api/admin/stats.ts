import { conversionStats } from "~/server/dashboard/conversion.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { promiseStats } from "~/server/pipeline/promises.server";
import { getStats } from "~/server/requests/queries.server";

/**
 * GET /api/admin/stats → the dashboard's figures (and its conversion charts' numbers). An API
 * token never reaches users (ADR 260): its answer leaves out the admin and invitation counts.
 */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Statistiken", scope: "requests:read" },
  ({ admin }) => {
    const { admins, activeAdmins, awaitingActivation, pendingInvitations, ...leads } = getStats();
    const stats = admin.tokenHash
      ? { ...leads, admins, activeAdmins, awaitingActivation, pendingInvitations }
      : leads;
    return noStoreJson({ stats, conversion: conversionStats(), promises: promiseStats() });
  },
);
