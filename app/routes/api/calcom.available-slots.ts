import { availableSlots } from "~/server/appointments/appointments.server";
import { requestedDay, SlotsRequestSchema } from "~/server/appointments/booking-api.server";
import { SLOTS_FAILED } from "~/server/appointments/scheduling/types";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { consumeAll, visitorLimits } from "~/server/platform/rate-limit.server";
import { failureJson } from "~/server/platform/result.server";

/** POST /api/calcom/available-slots {startDate, endDate, eventTypeKey} → {success, slots[{time, formatted, available}]} */
export const action = publicApi(
  { fallback: SLOTS_FAILED, methods: ["POST"], json: true },
  async ({ args, body }) => {
    // Each look-up may ask the team's calendars (a job of the calendar worker): limited per
    // client and per network (ADR 356), counted before the work.
    const limit = await consumeAll(visitorLimits("slot-lookup", clientIp(args.context)));
    if (!limit.ok) return failureJson(limit);
    // One message for any unusable day (the spec's), not the schema's per-field ones.
    const parsed = SlotsRequestSchema.safeParse(body);
    const day = parsed.success ? requestedDay(parsed.data) : null;
    if (!parsed.success || !day) return jsonError("Bitte wähle ein gültiges Datum aus.", 400);
    const result = await availableSlots(day, parsed.data.eventTypeKey);
    if (!result.ok)
      return Response.json(
        { success: false, error: result.error, slots: [] },
        { status: result.status },
      );
    return Response.json(
      { success: true, slots: result.value },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST");
