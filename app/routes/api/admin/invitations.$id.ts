import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { deleteInvitation } from "~/server/invitations.server";
import type { Route } from "./+types/invitations.$id";

/** DELETE: withdraws an invitation (its link stops working). */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim Löschen der Einladung", () => actionUnsafe(args));
}

async function actionUnsafe({ request, params }: Route.ActionArgs) {
  await requireApiAdmin(request);
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const id = parseId(params.id);
  if (!id) return jsonError("Einladung nicht gefunden.", 404);
  const result = deleteInvitation(id);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json({ success: true, message: "Einladung gelöscht." });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("DELETE");
}
