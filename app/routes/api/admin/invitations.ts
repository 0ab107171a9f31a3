import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { listInvitations } from "~/server/invitations.server";
import type { Route } from "./+types/invitations";

/** GET → {success, invitations} (unused ones; expired ones are marked). */
export function loader(args: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Abrufen der Einladungen", () => loaderUnsafe(args));
}

async function loaderUnsafe({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return Response.json(
    { success: true, invitations: listInvitations() },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request }: Route.ActionArgs) {
  await requireApiAdmin(request);
  return methodNotAllowed("GET");
}
