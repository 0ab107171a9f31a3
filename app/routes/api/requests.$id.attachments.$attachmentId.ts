import {
  jsonError,
  methodNotAllowed,
  parseId,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { failureResponse, requestIdOr404 } from "~/server/requests/api.server";
import { deleteAttachment } from "~/server/requests/manage.server";
import type { Route } from "./+types/requests.$id.attachments.$attachmentId";

/** DELETE /api/requests/{id}/attachments/{attachmentId} — admins only. */
export function action({ request, params }: Route.ActionArgs) {
  return withApiFallback("Fehler beim Löschen!", async () => {
    await requireApiAdmin(request);
    if (request.method !== "DELETE") return methodNotAllowed("DELETE");
    const id = requestIdOr404(params.id);
    if (id instanceof Response) return id;
    const attachmentId = parseId(params.attachmentId);
    if (!attachmentId) return jsonError("Anhang nicht gefunden.", 404);
    const result = await deleteAttachment(id, attachmentId);
    return result.ok
      ? Response.json({ success: true, message: "Anhang gelöscht." })
      : failureResponse(result);
  });
}

export const loader = () => methodNotAllowed("DELETE");
