import { FollowUpSchema } from "~/lib/follow-ups";
import { openFollowUp, setFollowUp } from "~/server/follow-ups/follow-ups.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { loadRequestJson } from "~/server/requests/serialize.server";

/** GET /api/admin/requests/{id}/follow-up → {followUp} (the open one or null; ADR 351). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Wiedervorlage", scope: "followups:read", id: REQUEST_ID },
  ({ id }) => {
    if (!loadRequestJson(id))
      return Response.json({ success: false, error: "Anfrage nicht gefunden." }, { status: 404 });
    return noStoreJson({ followUp: openFollowUp(id) });
  },
);

/**
 * PUT /api/admin/requests/{id}/follow-up {due: "YYYY-MM-DD"} or {preset: "morgen" | "3-tage" |
 * "naechste-woche"}, optional {text} → {followUp}: sets or moves the request's follow-up and makes
 * it the caller's task. A day in the past or more than a year ahead → 400 at `due`.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Setzen der Wiedervorlage",
    scope: "followups:write",
    methods: ["PUT"],
    allow: "GET, PUT",
    id: REQUEST_ID,
    schema: FollowUpSchema,
  },
  ({ id, body, admin }) => {
    const result = setFollowUp(id, admin, body);
    if (!result.ok) return failureJson(result);
    return noStoreJson({ followUp: result.followUp });
  },
);
