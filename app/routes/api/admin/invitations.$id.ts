import { deleteInvitation } from "~/server/accounts/invitations.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** DELETE: withdraws an invitation (its link stops working). */
export const action = adminApi(
  {
    fallback: "Fehler beim Löschen der Einladung",
    scope: "session",
    methods: ["DELETE"],
    id: { param: "id", notFound: "Einladung nicht gefunden." },
  },
  ({ id, admin }) => {
    const result = deleteInvitation(id, admin.id);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, message: "Einladung gelöscht." });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
