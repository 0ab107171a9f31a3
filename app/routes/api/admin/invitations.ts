import { methodNotAllowed, requireApiAdmin } from "~/server/auth.server";
import { listInvitations } from "~/server/invitations.server";
import type { Route } from "./+types/invitations";

/** GET → {success, invitations} (unused ones; expired ones are marked). */
export async function loader({ request }: Route.LoaderArgs) {
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
