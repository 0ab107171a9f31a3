import { data } from "react-router";
import { requireAdmin } from "~/server/accounts/auth.server";
import { parseId } from "~/server/http/http.server";
import { adminJsonOf } from "~/server/requests/quarantine.server";
import { loadRequestJson } from "~/server/requests/serialize.server";
import type { Route } from "./+types/request-details";

/**
 * GET /admin/requests/{id}/details: the full request behind one row of the list, fetched when an
 * admin expands the row with JavaScript (without it, `?expand={id}` renders the row expanded).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const found = id ? loadRequestJson(id) : null;
  const headers = { "Cache-Control": "private, no-store" };
  if (!found)
    return data({ request: null, error: "Anfrage nicht gefunden." }, { status: 404, headers });
  return data({ request: adminJsonOf(found) }, { headers });
}
