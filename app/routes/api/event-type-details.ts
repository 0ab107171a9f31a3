import {
  eventTypeDetails,
  EVENT_TYPE_LOAD_FAILED as LOAD_FAILED,
} from "~/server/appointments/booking-api.server";
import { publicApi } from "~/server/http/api-route.server";

/** GET /api/event-type-details → {success, eventType{name, description (sanitised HTML), duration}}. */
export const loader = publicApi({ fallback: LOAD_FAILED }, async () => {
  const result = await eventTypeDetails();
  if (!result.ok)
    return Response.json({ success: false, error: result.error }, { status: result.status });
  return Response.json({ success: true, eventType: result.eventType });
});
