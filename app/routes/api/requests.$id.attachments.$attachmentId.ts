import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError, parseId } from "~/server/http/http.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { deleteAttachment } from "~/server/requests/manage.server";

/** DELETE /api/requests/{id}/attachments/{attachmentId} — admins only. */
export const action = adminApi(
  {
    fallback: "Fehler beim Löschen!",
    scope: "requests:write",
    methods: ["DELETE"],
    id: REQUEST_ID,
  },
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
