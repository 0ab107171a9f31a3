import { MESSAGES } from "~/lib/auth-forms";
import { methodNotAllowed, withApiFallback } from "~/server/http.server";
import { findValidInvitation } from "~/server/invitations.server";
import type { Route } from "./+types/invitations.validate.$token";

/** GET (public) → {valid, message, email?}: whether an invitation link can still be used. */
export function loader(args: Route.LoaderArgs) {
  return withApiFallback("Fehler bei der Token-Validierung", () => loaderUnsafe(args));
}

async function loaderUnsafe({ params }: Route.LoaderArgs) {
  const invitation = findValidInvitation(params.token);
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
}

export const action = () => methodNotAllowed("GET");
