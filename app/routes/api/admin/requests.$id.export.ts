import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { personExportResponse } from "~/server/privacy/person-export.server";
import { requestIdOr404 } from "~/server/requests/api.server";
import type { Route } from "./+types/requests.$id.export";

/** GET /api/admin/requests/{id}/export: ZIP with everything stored about that person (same e-mail). */
export function loader({ request, params }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Exportieren!", async () => {
    const admin = await requireApiAdmin(request);
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    return personExportResponse(id, admin);
  });
}

export const action = () => methodNotAllowed("GET");
