import { deleteAdmin } from "~/server/admins.server";
import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import type { Route } from "./+types/users.$id";

/** DELETE: removes another admin; assignments and invitations move to the acting admin. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim Löschen des Admins", () => actionUnsafe(args));
}

async function actionUnsafe({ request, params }: Route.ActionArgs) {
  const admin = await requireApiAdmin(request);
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const id = parseId(params.id);
  if (!id) return jsonError("Admin nicht gefunden.", 404);
  const result = deleteAdmin(admin.id, id);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json({
    success: true,
    message: "Admin gelöscht. Zuweisungen und Einladungen wurden auf Sie übertragen.",
    transferredAssignments: result.transferredAssignments,
    transferredInvitations: result.transferredInvitations,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("DELETE");
}
