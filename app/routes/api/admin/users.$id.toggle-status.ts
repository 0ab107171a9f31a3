import { getAdminById, setAdminActive } from "~/server/admins.server";
import {
  jsonError,
  methodNotAllowed,
  parseId,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import type { Route } from "./+types/users.$id.toggle-status";

/** POST {activate?: boolean} → {success, admin, message}; without `activate` the state flips. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim Ändern des Admin-Status", () => actionUnsafe(args));
}

async function actionUnsafe({ request, params }: Route.ActionArgs) {
  const admin = await requireApiAdmin(request);
  if (request.method !== "POST") return methodNotAllowed("POST");
  const id = parseId(params.id);
  if (!id) return jsonError("Admin nicht gefunden.", 404);
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const { activate } = body.value;
  if (activate !== undefined && typeof activate !== "boolean") {
    return jsonError("'activate' muss true oder false sein.", 400);
  }
  const current = getAdminById(id);
  if (!current) return jsonError("Admin nicht gefunden.", 404);
  const result = setAdminActive(admin.id, id, activate ?? !current.isActive);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json({
    success: true,
    admin: result.admin,
    message: result.admin.is_active ? "Admin aktiviert." : "Admin deaktiviert.",
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("POST");
}
