import { listAdmins } from "~/server/admins.server";
import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import type { Route } from "./+types/users";

/** GET → {success, admins}. */
export function loader(args: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Admins", () => loaderUnsafe(args));
}

async function loaderUnsafe({ request }: Route.LoaderArgs) {
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
