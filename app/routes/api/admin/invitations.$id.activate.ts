import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { activateInvitation } from "~/server/invitations.server";
import type { Route } from "./+types/invitations.$id.activate";

/** POST → {success, adminData: {username, password}, message}: the password is shown only here. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim direkten Freischalten", () => actionUnsafe(args));
}

async function actionUnsafe({ request, params }: Route.ActionArgs) {
  const admin = await requireApiAdmin(request);
  if (request.method !== "POST") return methodNotAllowed("POST");
  const id = parseId(params.id);
  if (!id) return jsonError("Einladung nicht gefunden.", 404);
  const result = await activateInvitation(id, admin.id);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json(
    {
      success: true,
      adminData: result.adminData,
      message: `Admin ${result.adminData.username} wurde direkt freigeschaltet.`,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("POST");
}
