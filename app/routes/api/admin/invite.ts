import { InviteSchema } from "~/lib/auth-forms";
import { createInvitation, invitationMessage } from "~/server/accounts/invitations.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {email} → {success, invitationToken, invitation, mailed, link, message}: the link goes out
 * by mail, or — without SMTP — the message says none was sent and the caller passes `link` on.
 */
export const action = adminApi(
  {
    fallback: "Einladung fehlgeschlagen",
    scope: "session",
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
        mailed: result.mailed,
        link: result.link,
        message: invitationMessage(result.invitation.email, result),
      },
      { status: 201 },
    );
  },
);

export const loader = onlyMethod("POST");
