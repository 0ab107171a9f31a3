import { eventTypeDetails } from "~/server/appointments/booking-api.server";
import { publicApi } from "~/server/http/api-route.server";

const LOAD_FAILED = "Die Terminart konnte nicht geladen werden.";

/** GET /api/event-type-details → {success, eventType{name, description (sanitised HTML), duration}}. */
export const loader = publicApi({ fallback: LOAD_FAILED }, async () => {
  let eventType: Awaited<ReturnType<typeof eventTypeDetails>>;
  try {
    eventType = await eventTypeDetails();
  } catch {
    // The scheduler did not answer: a gateway error, not the server's own.
    return Response.json({ success: false, error: LOAD_FAILED }, { status: 502 });
  }
  if (!eventType)
    return Response.json(
      { success: false, error: "Terminbuchungen sind derzeit deaktiviert." },
      { status: 404 },
    );
  return Response.json({ success: true, eventType });
});
