import { methodNotAllowed, requireApiAdmin, withApiFallback } from "~/server/auth.server";
import { requestsCsvResponse } from "~/server/privacy/csv-export.server";
import type { Route } from "./+types/requests.export-csv";

/** GET /api/admin/requests/export.csv with the list's filters (tab, q, status, assignment, sort). */
export function loader({ request }: Route.LoaderArgs) {
  return withApiFallback("Fehler beim Exportieren!", async () => {
    const admin = await requireApiAdmin(request);
    return requestsCsvResponse(new URL(request.url), admin);
  });
}

export const action = () => methodNotAllowed("GET");
