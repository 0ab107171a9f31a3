import { fieldErrorsOf } from "~/lib/field-errors";
import { jsonError, readJsonObject } from "../http.server";
import type { AuditActor } from "../privacy/audit.server";
import { type Failure, RequestUpdateSchema, updateRequest } from "./manage.server";
import { adminJsonOf, releaseRequest } from "./quarantine.server";

/** JSON answer of a failed rule. */
export const failureResponse = (f: Failure) => jsonError(f.error, f.status);

/** The `id` option of an /api route about one request (see api-route.server.ts). */
export const REQUEST_ID = { param: "id", notFound: "Anfrage nicht gefunden." } as const;

/** Shared by PUT /api/admin/requests/{id} and PATCH /api/requests/{id}: validate, apply, answer. */
export async function applyRequestUpdate(
  request: Request,
  id: number,
  actor: AuditActor,
): Promise<Response> {
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = RequestUpdateSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return jsonError(parsed.error.issues[0]?.message ?? "Ungültige Eingabe", 400, { fieldErrors });
  }
  const { quarantined, ...update } = parsed.data;
  // { quarantined: false } releases a quarantined request first (the new-request flow, once).
  if (quarantined === false) {
    const released = await releaseRequest(id, actor);
    if (!released.ok) return failureResponse(released);
  }
  const result = updateRequest(id, update, actor);
  if (!result.ok) return failureResponse(result);
  return Response.json({
    success: true,
    message: "Gespeichert",
    request: adminJsonOf(result.request),
    updatedAt: result.request.updatedAt,
  });
}
