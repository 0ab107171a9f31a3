import { completeFollowUp } from "~/server/follow-ups/follow-ups.server";
import { adminApi, noStoreJson, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";

/** POST /api/admin/requests/{id}/follow-up/done → {followUp} ("Erledigt"); 404 without one open. */
export const action = adminApi(
  {
    fallback: "Fehler beim Erledigen der Wiedervorlage",
    scope: "followups:write",
    methods: ["POST"],
    id: REQUEST_ID,
  },
  ({ id, admin }) => {
    const result = completeFollowUp(id, admin);
    if (!result.ok) return failureJson(result);
    return noStoreJson({ followUp: result.followUp });
  },
);

export const loader = onlyMethod("POST", { admin: true });
