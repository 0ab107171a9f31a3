import { cancelByAdmin } from "~/server/appointments/admin-changes.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { adminActor } from "~/server/privacy/audit.server";

/** POST /api/admin/appointments/{id}/cancel → the cancelled appointment (visitor mails, reminder dropped, slot freed, audited: the same function as the card and the visitor's link). */
export const action = adminApi(
  {
    fallback: "Fehler beim Absagen!",
    scope: "appointments:write",
    methods: ["POST"],
    id: { param: "id", notFound: "Termin nicht gefunden." },
  },
  async ({ id, admin }) => {
    const result = await cancelByAdmin(adminActor(admin.id), id);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, appointment: result.value });
  },
);

export const loader = onlyMethod("POST");
