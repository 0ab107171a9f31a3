import { requireApiAdmin } from "~/server/auth.server";
import { jsonError, methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/auth.verify";

/** GET: checks the current session; 401 when missing, unknown or expired. */
export async function loader({ request }: Route.LoaderArgs) {
  let verified: Awaited<ReturnType<typeof requireApiAdmin>>;
  try {
    verified = await requireApiAdmin(request, { allowPendingPasswordChange: true });
  } catch (error) {
    if (error instanceof Response) throw error;
    console.warn("Session-Verifikation:", error);
    return jsonError("Session-Verifikation fehlgeschlagen", 500);
  }
  const { tokenHash: _hidden, ...admin } = verified;
  return Response.json(
    { success: true, valid: true, admin },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = () => methodNotAllowed("GET");
