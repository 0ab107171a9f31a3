import { fieldErrorsOf } from "~/lib/field-errors";
import { BookRequestSchema, bookForCaller } from "~/server/appointments/booking-api.server";
import { jsonError, methodNotAllowed, readJsonObject } from "~/server/http.server";
import { clientIp } from "~/server/request-context.server";
import type { Route } from "./+types/calcom.book-appointment";

/** POST /api/calcom/book-appointment {requestId, startTime, endTime, timeZone, eventTypeKey} → {appointment} | {error} */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = BookRequestSchema.safeParse(body.value);
  if (!parsed.success) {
    return jsonError("Bitte wähle Datum und Uhrzeit aus", 400, {
      fieldErrors: fieldErrorsOf(parsed.error),
    });
  }
  const result = await bookForCaller(request, parsed.data, clientIp(context));
  if (!result.ok)
    return Response.json({ success: false, error: result.error }, { status: result.status });
  return Response.json(
    { success: true, appointment: result.appointment, demo: result.demo },
    { status: result.demo ? 200 : 201 },
  );
}

export const loader = () => methodNotAllowed("POST");
