import { AffiliateToggleSchema } from "~/lib/affiliate";
import { deleteAffiliateCode, setAffiliateActive } from "~/server/affiliates.server";
import { adminApi } from "~/server/http/api-route.server";
import { jsonError, methodNotAllowed } from "~/server/http/http.server";
import type { Route } from "./+types/affiliate-codes.$id";

const ID = { param: "id", notFound: "Affiliate-Code nicht gefunden." } as const;

/** DELETE /api/affiliate-codes/{id} (admins only). */
const remove = adminApi(
  { fallback: "Fehler beim Löschen!", scope: "codes:write", id: ID },
  ({ id, admin }) =>
    deleteAffiliateCode(id, admin)
      ? Response.json({ success: true, message: "Affiliate-Code gelöscht!" })
      : jsonError(ID.notFound, 404),
);

/** PATCH (or PUT) /api/affiliate-codes/{id} {isActive} (admins only). */
const update = adminApi(
  {
    fallback: "Fehler beim Aktualisieren!",
    scope: "codes:write",
    id: ID,
    schema: AffiliateToggleSchema,
  },
  ({ id, body, admin }) => {
    const updated = setAffiliateActive(id, body.isActive, admin);
    return updated
      ? Response.json({ success: true, affiliateCode: updated })
      : jsonError(ID.notFound, 404);
  },
);

/** Any other method: 405 after authentication and the id, as before. */
const other = adminApi({ fallback: "Fehler beim Aktualisieren!", scope: "session", id: ID }, () =>
  methodNotAllowed("PATCH, DELETE"),
);

export function action(args: Route.ActionArgs) {
  const method = args.request.method;
  if (method === "DELETE") return remove(args);
  return method === "PATCH" || method === "PUT" ? update(args) : other(args);
}

export const loader = () => methodNotAllowed("PATCH, DELETE");
