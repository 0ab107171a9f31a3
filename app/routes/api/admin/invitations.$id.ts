import { adminApi, onlyMethod } from "~/server/api-route.server";
import { jsonError } from "~/server/http.server";
import { deleteInvitation } from "~/server/invitations.server";

/** DELETE: withdraws an invitation (its link stops working). */
export const action = adminApi(
  {
    fallback: "Fehler beim Löschen der Einladung",
    methods: ["DELETE"],
    id: { param: "id", notFound: "Einladung nicht gefunden." },
  },
  ({ id, admin }) => {
    const result = deleteInvitation(id, admin.id);
    if (!result.ok) return jsonError(result.error, result.status);
    return Response.json({ success: true, message: "Einladung gelöscht." });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
