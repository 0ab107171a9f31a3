import { failureJson } from "../platform/result.server";
import type { AuditActor } from "../privacy/audit.server";
import { type RequestUpdate, updateRequest } from "./manage.server";
import { adminJsonOf, releaseRequest } from "./quarantine.server";
import { workItemsVisibleTo } from "./work-items.server";

/** The `id` option of an /api route about one request (see api-route.server.ts). */
export const REQUEST_ID = { param: "id", notFound: "Anfrage nicht gefunden." } as const;

/**
 * Shared by PUT /api/admin/requests/{id} and PATCH /api/requests/{id}: the body was read and
 * parsed by `adminApi({ schema: RequestUpdateSchema })`; apply it and answer.
 */
export async function applyRequestUpdate(
  id: number,
  { quarantined, ...update }: RequestUpdate,
  actor: AuditActor,
): Promise<Response> {
  // { quarantined: false } releases a quarantined request first (the new-request flow, once).
  if (quarantined === false) {
    const released = await releaseRequest(id, actor);
    if (!released.ok) return failureJson(released);
  }
  const result = updateRequest(id, update, actor);
  if (!result.ok) return failureJson(result);
  return Response.json({
    success: true,
    message: "Gespeichert",
    request: adminJsonOf(result.request, workItemsVisibleTo(actor)),
    updatedAt: result.request.updatedAt,
  });
}
