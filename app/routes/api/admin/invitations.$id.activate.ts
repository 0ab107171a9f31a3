import { activateInvitation } from "~/server/accounts/invitations.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** POST → {success, adminData: {username, password}, message}: the password is shown only here. */
export const action = adminApi(
  {
    fallback: "Fehler beim direkten Freischalten",
    scope: "session",
    methods: ["POST"],
    id: { param: "id", notFound: "Einladung nicht gefunden." },
  },
  async ({ id, admin }) => {
    const result = await activateInvitation(id, admin.id);
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        adminData: result.adminData,
        message: `Admin ${result.adminData.username} wurde direkt freigeschaltet.`,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST", { admin: true });
