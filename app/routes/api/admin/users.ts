import { listAdmins } from "~/server/admins.server";
import { methodNotAllowed, requireApiAdmin } from "~/server/auth.server";
import type { Route } from "./+types/users";

/** GET → {success, admins}. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return Response.json(
    { success: true, admins: listAdmins() },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request }: Route.ActionArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("GET");
}
