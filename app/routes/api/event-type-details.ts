import { eventTypeDetails } from "~/server/appointments/booking-api.server";

/** GET /api/event-type-details → {success, eventType{name, description (sanitised HTML), duration}}. */
export async function loader() {
  try {
    const eventType = await eventTypeDetails();
    if (!eventType)
      return Response.json(
        { success: false, error: "Terminbuchungen sind derzeit deaktiviert." },
        { status: 404 },
      );
    return Response.json({ success: true, eventType });
  } catch {
    return Response.json(
      { success: false, error: "Die Terminart konnte nicht geladen werden." },
      { status: 502 },
    );
  }
}
