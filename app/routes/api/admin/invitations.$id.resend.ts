import { invitationMessage, resendInvitation } from "~/server/accounts/invitations.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** POST → {success, invitationToken, mailed, link, message}: a new link (7 days); the old one is dead. */
export const action = adminApi(
  {
    fallback: "Fehler beim erneuten Senden der Einladung",
    scope: "session",
    methods: ["POST"],
    id: { param: "id", notFound: "Einladung nicht gefunden." },
  },
  ({ id, admin }) => {
    const result = resendInvitation(id, admin.id);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      invitationToken: result.token,
      mailed: result.mailed,
      link: result.link,
      message: invitationMessage(result.email, result, true),
    });
  },
);

export const loader = onlyMethod("POST", { admin: true });
