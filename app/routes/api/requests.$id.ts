import { adminApi } from "~/server/http/api-route.server";
import { methodNotAllowed } from "~/server/http/http.server";
import { failureJson } from "~/server/platform/result.server";
import { applyRequestUpdate, REQUEST_ID } from "~/server/requests/api.server";
import { deleteRequest, RequestUpdateSchema } from "~/server/requests/manage.server";

/** PATCH /api/requests/{id} (changed fields + updatedAt; stale → 409) — admins only. */
const patch = adminApi(
  {
    fallback: "Fehler beim Speichern!",
    scope: "requests:write",
    id: REQUEST_ID,
    schema: RequestUpdateSchema,
  },
  ({ id, body, admin }) => applyRequestUpdate(id, body, admin),
);

/** DELETE /api/requests/{id}: erases the request (admins only). */
const remove = adminApi(
  { fallback: "Fehler beim Speichern!", scope: "session", id: REQUEST_ID },
  async ({ id, admin }) => {
    const result = await deleteRequest(id, admin);
    return result.ok
      ? Response.json({ success: true, message: "Anfrage gelöscht." })
      : failureJson(result);
  },
);

const other = adminApi(
  { fallback: "Fehler beim Speichern!", scope: "session", id: REQUEST_ID },
  () => methodNotAllowed("PATCH, DELETE"),
);

export function action(args: Parameters<typeof patch>[0]) {
  if (args.request.method === "PATCH") return patch(args);
  if (args.request.method === "DELETE") return remove(args);
  return other(args);
}

export const loader = () => methodNotAllowed("PATCH, DELETE");
