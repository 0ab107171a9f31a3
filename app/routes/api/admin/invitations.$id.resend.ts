import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { resendInvitation } from "~/server/invitations.server";
import type { Route } from "./+types/invitations.$id.resend";

/** POST → {success, invitationToken, message}: a new link (7 days); the old one is dead. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim erneuten Senden der Einladung", () => actionUnsafe(args));
}

async function actionUnsafe({ request, params }: Route.ActionArgs) {
  const admin = await requireApiAdmin(request);
  if (request.method !== "POST") return methodNotAllowed("POST");
  const id = parseId(params.id);
  if (!id) return jsonError("Einladung nicht gefunden.", 404);
  const result = resendInvitation(id, admin.id);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json({
    success: true,
    invitationToken: result.token,
    message: "Einladung erneut gesendet.",
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("POST");
}
