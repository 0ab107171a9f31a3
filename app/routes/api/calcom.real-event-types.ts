import { eventTypesWithFallback } from "~/server/appointments/appointments.server";
import { adminApi } from "~/server/http/api-route.server";

/** GET /api/calcom/real-event-types → {success, eventTypes: {event_types: [...]}}; fallback 'demo' (30 min). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Terminarten", scope: "appointments:read" },
  async () => {
    const list = await eventTypesWithFallback();
    return Response.json(
      {
        success: true,
        eventTypes: {
          event_types: list.map((e) => ({
            id: e.id ?? e.key,
            title: e.title,
            slug: e.slug,
            length: e.lengthInMinutes,
            description: e.description,
            hidden: e.hidden,
          })),
        },
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);
