import { createRequire } from "node:module";
import type SanitizeHtml from "sanitize-html";
import { z } from "zod";
import { openWeekdays } from "~/lib/availability";
import {
  berlinDayOf,
  berlinToday,
  bookingDuration,
  bookingHint,
  calendarGrid,
  firstBookableDay,
  isIsoDay,
  isIsoMonth,
  lastBookableDay,
  laterDay,
  monthOf,
  nextOpenDay,
  PICK_DATE_AND_TIME,
} from "~/lib/booking-calendar";
import { demoRequest } from "~/lib/demo-request";
import type { RequestJson } from "~/lib/request-json";
import { closedDaysAhead } from "~/server/appointments/holidays.server";
import { getApiAdmin } from "../accounts/auth.server";
import { addDemoHost } from "../assignment/fair-assignment.server";
import { getConfiguration } from "../configuration/configuration.server";
import { markFollowUpAnswered } from "../follow-ups/answers.server";
import { consumeAll, refundAll, visitorLimits } from "../platform/rate-limit.server";
import { type Failure, failure, type Ok, type Result } from "../platform/result.server";
import { loadRequestJson } from "../requests/serialize.server";
import { visitorOwnsRequest } from "../visitors/visitor.server";
import {
  availableSlots,
  BOOKING_DISABLED,
  bookAppointment,
  configuredEventType,
} from "./appointments.server";
import { withRequestReservation } from "./one-per-request.server";

// Loaded on the first description to sanitise, not at start: sanitize-html brings postcss and
// htmlparser2 (~45 modules) that no page needs before booking is opened (cold start, ADR 131).
let sanitizer: typeof SanitizeHtml | undefined;
const loadSanitizer = () => {
  sanitizer ??= createRequire(import.meta.url)("sanitize-html") as typeof SanitizeHtml;
  return sanitizer;
};

/** Event-type HTML is sanitised with a real sanitiser before any page renders it. */
export function sanitizeDescription(html: string): string {
  const sanitizeHtml = loadSanitizer();
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "a", "span"],
    allowedAttributes: { a: ["href", "title"] },
    allowedSchemes: ["http", "https", "mailto"],
    transformTags: {
      a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }),
    },
  });
}

export const EVENT_TYPE_LOAD_FAILED = "Die Terminart konnte nicht geladen werden.";

export type EventTypeDetails = { key: string; name: string; description: string; duration: number };

/**
 * {name, description, duration} of the configured event type for the dialog header; booking
 * switched off is a 404, a scheduler that does not answer a 502 (a gateway error, not ours).
 */
export async function eventTypeDetails(): Promise<Result<{ eventType: EventTypeDetails }>> {
  const configured = await configuredEventType();
  if (!configured.ok) return failure(502, EVENT_TYPE_LOAD_FAILED);
  const eventType = configured.value;
  if (!eventType) return failure(404, BOOKING_DISABLED);
  return {
    ok: true,
    eventType: {
      key: eventType.key,
      name: eventType.title,
      description: sanitizeDescription(eventType.description),
      duration: eventType.lengthInMinutes,
    },
  };
}

export const SlotsRequestSchema = z.object({
  startDate: z.string().min(1),
  endDate: z.string().optional(),
  eventTypeKey: z.string().max(200).optional(),
  /** The Berlin calendar day (sent by our dialog; derived from startDate otherwise). */
  day: z.string().optional(),
});

/** The Berlin day a slots request is about. */
export function requestedDay(input: z.infer<typeof SlotsRequestSchema>): string | null {
  if (input.day && isIsoDay(input.day)) return input.day;
  if (isIsoDay(input.startDate)) return input.startDate;
  const start = new Date(input.startDate);
  if (Number.isNaN(start.getTime())) return null;
  // Midday of the given instant's Berlin date, so a local-midnight ISO lands on the intended day.
  return berlinDayOf(new Date(start.getTime() + 12 * 3600_000 - 1));
}

export const BookRequestSchema = z.object({
  requestId: z
    .union([z.number(), z.string()])
    .transform((v) => Number(v))
    .pipe(z.number().int().positive(PICK_DATE_AND_TIME))
    .optional(),
  startTime: z.string({ error: PICK_DATE_AND_TIME }).min(1, PICK_DATE_AND_TIME),
  endTime: z.string().optional(),
  timeZone: z.string().max(64).optional(),
  eventTypeKey: z.string().max(200).optional(),
  demo: z.boolean().optional(),
});

const NOT_YOURS = "Nur für die eigene Anfrage buchbar.";

export type BookingAccess =
  | { ok: true; demo: true; admin: true }
  | { ok: true; demo: false; admin: boolean; request: RequestJson }
  | Failure;

/**
 * Who may book (the one rule, for /termin and the booking API): a demo booking (or one without a
 * request) is for admins; a real one for the visitor who submitted the request (history cookie) or
 * an admin. An admin whose first password change is pending has no admin rights yet.
 */
export async function bookingAccess(
  request: Request,
  target: { demo?: boolean; requestId?: number | null },
): Promise<BookingAccess> {
  const admin = Boolean(await getApiAdmin(request));
  if (target.demo || !target.requestId)
    return admin ? { ok: true, demo: true, admin: true } : failure(403, NOT_YOURS);
  if (!admin && !(await visitorOwnsRequest(request, target.requestId)))
    return failure(403, NOT_YOURS);
  const found = loadRequestJson(target.requestId);
  if (!found) return failure(404, "Anfrage nicht gefunden.");
  return { ok: true, demo: false, admin, request: found };
}

/**
 * Books for a request the caller may book for: the visitor who submitted it (history cookie) or an
 * admin. Demo bookings (admins only) check the slot but book nothing.
 */
export async function bookForCaller(
  request: Request,
  input: z.infer<typeof BookRequestSchema>,
  clientIp: string,
): Promise<Result<{ appointment: unknown; demo: boolean }>> {
  const access = await bookingAccess(request, input);
  if (!access.ok) return access;
  if (access.demo) return demoBooking(input);
  const { admin, request: found } = access;
  // Visitors: reserved per client (an IPv4 address or IPv6 /56, ADR 254) and per network
  // (ADR 322) before the booking, given back when nothing was booked.
  const limits = admin ? [] : visitorLimits("booking", clientIp);
  const limit = await consumeAll(limits);
  if (!limit.ok) return limit;
  let booked = false;
  try {
    const result = await withRequestReservation(found.id, () =>
      bookAppointment({
        request: { id: found.id, name: found.name, email: found.email, phone: found.phone },
        startTime: input.startTime,
        eventTypeKey: input.eventTypeKey,
        timeZone: input.timeZone,
      }),
    );
    if (!result.ok) return result;
    booked = true;
    // The admin who takes the demo becomes an assignee (ADR 338); an open follow-up is marked
    // "Termin gebucht" (ADR 351).
    addDemoHost(result.value.id);
    markFollowUpAnswered(found.id, "booking");
    return { ok: true, appointment: result.value, demo: false };
  } finally {
    if (!booked) await refundAll(limits);
  }
}

/** An admin's demo booking: the slot is checked, nothing is booked (the spec's sample request). */
async function demoBooking(
  input: z.infer<typeof BookRequestSchema>,
): Promise<Ok<{ appointment: unknown; demo: true }> | Failure> {
  const start = new Date(input.startTime);
  if (Number.isNaN(start.getTime())) return failure(400, PICK_DATE_AND_TIME);
  const configured = await configuredEventType(input.eventTypeKey);
  if (!configured.ok) return configured;
  const eventType = configured.value;
  const duration = bookingDuration(eventType?.lengthInMinutes);
  return {
    ok: true,
    demo: true,
    appointment: {
      id: 0,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + duration * 60_000).toISOString(),
      eventType: { name: eventType?.title ?? "Termin buchen", duration },
      status: "DEMO",
      // The spec's sample request instead of real request data (nothing is booked).
      request: demoRequest(start.toISOString(), eventType?.key ?? input.eventTypeKey),
    },
  };
}

/** A booking being moved: its own time is no choice, and it blocks nothing around it. */
export type MovingBooking = { id: number; start: Date; minutes: number };

/**
 * What the server-rendered slot choice shows for a page URL (`monat`, `tag`): the month's grid
 * (lead-time days), the chosen day when selectable and its free slots (lead-time hours). With
 * `moving` (reschedule) the slots have the booking's length, leave it out of the bookings and
 * skip its current start.
 */
export async function slotPickerState(
  url: URL,
  withSlots: boolean,
  moving?: MovingBooking,
  visitorIp?: string,
) {
  const lead = getConfiguration().bookingLeadTime;
  const firstDay = firstBookableDay(lead.days);
  const monat = url.searchParams.get("monat");
  const month = isIsoMonth(monat) ? monat : monthOf(berlinToday());
  const openDays = openWeekdays(getConfiguration().scheduling.weeklyHours);
  const closed = closedDaysAhead(getConfiguration().scheduling, `${month}-01`, 31);
  const last = lastBookableDay(getConfiguration().scheduling.horizonDays);
  const cells = calendarGrid(month, firstDay, berlinToday(), openDays, closed, last);
  const tagParam = url.searchParams.get("tag");
  const day =
    isIsoDay(tagParam) && cells.some((c) => c.day === tagParam && c.selectable) ? tagParam : null;
  let slots: { time: string; formatted: string }[] | null = null;
  let error: string | null = null;
  let retryAfterSeconds: number | null = null;
  // A visitor's look-up is limited like the API's (ADR 356); the month's grid stays.
  const limit =
    withSlots && day && visitorIp !== undefined
      ? await consumeAll(visitorLimits("slot-lookup", visitorIp))
      : null;
  if (limit && !limit.ok) {
    error = limit.error;
    retryAfterSeconds = limit.retryAfterSeconds;
  } else if (withSlots && day) {
    const found = await availableSlots(day, null, moving?.minutes, moving?.id);
    slots = found.ok
      ? found.value.filter((s) => Date.parse(s.time) !== moving?.start.getTime())
      : [];
    error = found.ok ? null : found.error;
  }
  // A month without a selectable day points to the next day the calendar offers after its start.
  const from = laterDay(firstDay, `${month}-01`);
  const nextFree = cells.some((c) => c.selectable)
    ? null
    : nextOpenDay(from, openDays, closedDaysAhead(getConfiguration().scheduling, from, 400), last);
  return {
    month,
    cells,
    day,
    slots,
    error,
    hint: bookingHint(openDays, last),
    nextFree,
    retryAfterSeconds,
  };
}
