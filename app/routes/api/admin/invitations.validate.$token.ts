import { MESSAGES } from "~/lib/auth-forms";
import { findValidInvitation } from "~/server/accounts/invitations.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";

/** GET (public) → {valid, message, email?}: whether an invitation link can still be used. */
export const loader = publicApi({ fallback: "Fehler bei der Token-Validierung" }, ({ args }) => {
  const invitation = findValidInvitation(args.params.token);
  const headers = { "Cache-Control": "no-store" };
  if (!invitation) {
    return Response.json(
      { valid: false, message: MESSAGES.invitationInvalid, error: MESSAGES.invitationInvalid },
      { status: 404, headers },
    );
  }
  return Response.json(
    { valid: true, message: "Einladung gültig.", email: invitation.email },
    { headers },
  );
});

export const action = onlyMethod("GET");
