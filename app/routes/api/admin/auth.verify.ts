import { methodNotAllowed, requireApiAdmin } from "~/server/auth.server";
import type { Route } from "./+types/auth.verify";

/** GET: checks the current session; 401 when missing, unknown or expired. */
export async function loader({ request }: Route.LoaderArgs) {
  const { tokenHash: _hidden, ...admin } = await requireApiAdmin(request);
  return Response.json(
    { success: true, valid: true, admin },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = () => methodNotAllowed("GET");
