import { deleteAffiliateCode, setAffiliateActive } from "~/server/affiliates.server";
import { requireApiAdmin } from "~/server/auth.server";
import {
  jsonError,
  methodNotAllowed,
  parseId,
  readJsonObject,
  withApiFallback,
} from "~/server/http.server";
import type { Route } from "./+types/affiliate-codes.$id";

/** PATCH {isActive} and DELETE (admins only). */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback(
    request.method === "DELETE" ? "Fehler beim Löschen!" : "Fehler beim Aktualisieren!",
    async () => {
      await requireApiAdmin(request);
      const id = parseId(params.id);
      if (!id) return jsonError("Affiliate-Code nicht gefunden.", 404);
      if (request.method === "DELETE") {
        return deleteAffiliateCode(id)
          ? Response.json({ success: true, message: "Affiliate-Code gelöscht!" })
          : jsonError("Affiliate-Code nicht gefunden.", 404);
      }
      if (request.method !== "PATCH" && request.method !== "PUT")
        return methodNotAllowed("PATCH, DELETE");
      const body = await readJsonObject(request);
      if (!body.ok) return body.response;
      if (typeof body.value.isActive !== "boolean")
        return jsonError("isActive muss true oder false sein.", 400);
      const updated = setAffiliateActive(id, body.value.isActive);
      return updated
        ? Response.json({ success: true, affiliateCode: updated })
        : jsonError("Affiliate-Code nicht gefunden.", 404);
    },
  );
}

export const loader = () => methodNotAllowed("PATCH, DELETE");
