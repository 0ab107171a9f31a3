import { PICK_DATE_AND_TIME } from "~/lib/booking-calendar";
import { fieldErrorsOf } from "~/lib/field-errors";
import { BookRequestSchema, bookForCaller } from "~/server/appointments/booking-api.server";
import { BOOKING_FAILED } from "~/server/appointments/scheduling/types";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureJson } from "~/server/platform/result.server";

/** POST /api/calcom/book-appointment {requestId, startTime, endTime, timeZone, eventTypeKey} → {appointment} | {error} */
export const action = publicApi(
  { fallback: BOOKING_FAILED, methods: ["POST"], json: true },
  async ({ request, body, args }) => {
    const parsed = BookRequestSchema.safeParse(body);
    if (!parsed.success) {
      // The spec's one message for an unusable choice, the details as field errors.
      return jsonError(PICK_DATE_AND_TIME, 400, {
        fieldErrors: fieldErrorsOf(parsed.error),
      });
    }
    const result = await bookForCaller(request, parsed.data, clientIp(args.context));
    if (!result.ok) return failureJson(result);
    return Response.json(
      { success: true, appointment: result.appointment, demo: result.demo },
      { status: result.demo ? 200 : 201 },
    );
  },
);

export const loader = onlyMethod("POST");
