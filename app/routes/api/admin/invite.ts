import { InviteSchema } from "~/lib/auth-forms";
import { adminApi, onlyMethod } from "~/server/api-route.server";
import { jsonError } from "~/server/http.server";
import { createInvitation } from "~/server/invitations.server";

/** POST {email} → {success, invitationToken, invitation, message}; the link goes out by mail. */
export const action = adminApi(
  {
    fallback: "Einladung fehlgeschlagen",
    methods: ["POST"],
    methodFirst: true,
    schema: InviteSchema,
  },
  ({ body, admin }) => {
    const result = createInvitation(body.email, admin.id);
    if (!result.ok) return jsonError(result.error, result.status);
    return Response.json(
      {
        success: true,
        invitationToken: result.token,
        invitation: result.invitation,
        message: `Einladung an ${result.invitation.email} gesendet.`,
      },
      { status: 201 },
    );
  },
);

export const loader = onlyMethod("POST");
