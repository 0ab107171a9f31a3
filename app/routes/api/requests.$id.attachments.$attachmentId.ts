import { adminApi, onlyMethod } from "~/server/api-route.server";
import { jsonError, parseId } from "~/server/http.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { deleteAttachment } from "~/server/requests/manage.server";
import { failureJson } from "~/server/result.server";

/** DELETE /api/requests/{id}/attachments/{attachmentId} — admins only. */
export const action = adminApi(
  { fallback: "Fehler beim Löschen!", methods: ["DELETE"], id: REQUEST_ID },
  async ({ id, args }) => {
    const attachmentId = parseId(args.params.attachmentId);
    if (!attachmentId) return jsonError("Anhang nicht gefunden.", 404);
    const result = await deleteAttachment(id, attachmentId);
    return result.ok
      ? Response.json({ success: true, message: "Anhang gelöscht." })
      : failureJson(result);
  },
);

export const loader = onlyMethod("DELETE");
