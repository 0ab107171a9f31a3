import { deleteAdmin } from "~/server/accounts/admins.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** DELETE: removes another admin; assignments and invitations move to the acting admin. */
export const action = adminApi(
  {
    fallback: "Fehler beim Löschen des Admins",
    scope: "session",
    methods: ["DELETE"],
    id: { param: "id", notFound: "Admin nicht gefunden." },
  },
  ({ id, admin }) => {
    const result = deleteAdmin(admin.id, id);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      message: "Admin gelöscht. Zuweisungen und Einladungen wurden auf Sie übertragen.",
      transferredAssignments: result.transferredAssignments,
      transferredInvitations: result.transferredInvitations,
    });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
