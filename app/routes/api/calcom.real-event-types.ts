import { eventTypesWithFallback } from "~/server/appointments/appointments.server";
import { requireApiAdmin } from "~/server/auth.server";
import type { Route } from "./+types/calcom.real-event-types";

/** GET /api/calcom/real-event-types → {success, eventTypes: {event_types: [...]}}; fallback 'demo' (30 min). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
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
}
