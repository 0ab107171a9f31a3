import { InviteSchema } from "~/lib/auth-forms";
import { adminApi, onlyMethod } from "~/server/api-route.server";
import { createInvitation } from "~/server/invitations.server";
import { failureJson } from "~/server/result.server";

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
    if (!result.ok) return failureJson(result);
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
