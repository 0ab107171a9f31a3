import { availableSlots } from "~/server/appointments/appointments.server";
import { requestedDay, SlotsRequestSchema } from "~/server/appointments/booking-api.server";
import { SchedulingError, SLOTS_FAILED } from "~/server/appointments/scheduling/types";
import { jsonError, methodNotAllowed, readJsonObject } from "~/server/http.server";
import type { Route } from "./+types/calcom.available-slots";

/** POST /api/calcom/available-slots {startDate, endDate, eventTypeKey} → {success, slots[{time, formatted, available}]} */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = SlotsRequestSchema.safeParse(body.value);
  const day = parsed.success ? requestedDay(parsed.data) : null;
  if (!parsed.success || !day) return jsonError("Bitte wähle ein gültiges Datum aus.", 400);
  try {
    const slots = await availableSlots(day, parsed.data.eventTypeKey);
    return Response.json({ success: true, slots }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof SchedulingError)
      return Response.json(
        { success: false, error: error.message, slots: [] },
        { status: error.status },
      );
    console.error("Slots:", error);
    return Response.json({ success: false, error: SLOTS_FAILED, slots: [] }, { status: 502 });
  }
}

export const loader = () => methodNotAllowed("POST");
