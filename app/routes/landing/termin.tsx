import { data, Link } from "react-router";
import { BookingHeader, BookingSuccess, useBookingMail } from "~/components/booking/booking-panel";
import { DemoRequestCard } from "~/components/booking/demo-request-card";
import { SlotPicker } from "~/components/booking/slot-picker";
import { AppointmentTrace } from "~/components/landing/appointment-trace";
import { VisitorError } from "~/components/landing/visitor-error";
import { buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { DEFAULT_EVENT_TITLE, PICK_DATE_AND_TIME } from "~/lib/booking-calendar";
import { DEMO_REQUEST, type DemoRequest } from "~/lib/demo-request";
import {
  bookForCaller,
  bookingAccess,
  eventTypeDetails,
  slotPickerState,
} from "~/server/appointments/booking-api.server";
import { bookingEnabled } from "~/server/appointments/booking-settings.server";
import { visitorAppointments } from "~/server/appointments/visitor.server";
import { parseId, readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { requestsWithAppointment } from "~/server/requests/serialize.server";
import { refuseFilledHoneypot } from "~/server/spam/honeypot.server";
import type { Route } from "./+types/termin";

export const meta: Route.MetaFunction = () => [
  { title: "Demo-Termin buchen" },
  { name: "robots", content: "noindex" },
];

/** The booking of one's own request: its name and booked time are the visitor's (ADR 324). */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  // A slot look-up beyond its limit (ADR 356): the page says so, with the wait as Retry-After.
  const retryAfter = loaderHeaders.get("Retry-After");
  return {
    "Cache-Control": "private, no-store",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}

/** Who books: the visitor of their own request (history cookie), or an admin (demo or on behalf). */
async function bookingContext(request: Request) {
  const url = new URL(request.url);
  const demo = url.searchParams.get("demo") === "1";
  const id = parseId(url.searchParams.get("anfrage") ?? undefined);
  if (!demo && !id) return null;
  const access = await bookingAccess(request, { demo, requestId: id });
  if (!access.ok) return null;
  if (access.demo)
    return {
      demo: true,
      requestId: null,
      name: DEMO_REQUEST.name,
      booked: false,
      appointment: null,
    };
  const found = access.request;
  return {
    demo: false,
    requestId: found.id,
    name: found.name,
    booked: requestsWithAppointment([found.id]).length > 0,
    appointment: visitorAppointments([found.id]).get(found.id) ?? null,
  };
}

const BOOKING_OFF = "Terminbuchungen sind derzeit deaktiviert.";
/** Another browser than the one that sent the request: the receipt's link opens it here (ADR 220). */
const NOT_YOURS =
  "Diese Terminbuchung ist nur für die eigene Anfrage möglich. Hast du unsere E-Mail „Deine Anfrage ist bei uns eingegangen“? Über ihren Link öffnest du deine Anfrage auch auf diesem Gerät und kannst hier buchen.";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!bookingEnabled()) throw data(BOOKING_OFF, { status: 404 });
  const booking = await bookingContext(request);
  if (!booking) {
    throw data(NOT_YOURS, { status: 404 });
  }
  // Without the event type (booking off, the scheduler not answering) the page offers no slots.
  const details = await eventTypeDetails();
  const event = details.ok ? details.eventType : null;
  const { month, cells, day, slots, error, hint, nextFree, retryAfterSeconds } =
    await slotPickerState(new URL(request.url), Boolean(event), undefined, clientIp(context));
  const page = { context: booking, event, month, cells, day, slots, error, hint, nextFree };
  return retryAfterSeconds === null
    ? page
    : data(page, { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  refuseFilledHoneypot(form);
  if (!bookingEnabled()) return data({ error: BOOKING_OFF }, { status: 404 });
  const booking = await bookingContext(request);
  if (!booking) return data({ error: NOT_YOURS }, { status: 403 });
  const startTime = String(form.get("startTime") ?? "");
  if (!startTime) return data({ error: PICK_DATE_AND_TIME }, { status: 400 });
  const result = await bookForCaller(
    request,
    {
      requestId: booking.requestId ?? undefined,
      startTime,
      timeZone: "Europe/Berlin",
      demo: booking.demo,
    },
    clientIp(context),
  );
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  const appointment = result.appointment as {
    startTime: string;
    endTime: string;
    request?: DemoRequest;
    videoUrl?: string | null;
  };
  return {
    success: {
      start: appointment.startTime,
      end: appointment.endTime,
      demo: result.demo,
      videoUrl: result.demo ? null : (appointment.videoUrl ?? null),
      // Only the demo answer carries the sample request (a real booking's `request` is the lead).
      sample: result.demo ? (appointment.request ?? null) : null,
    },
  };
}

export default function TerminPage({ loaderData, actionData }: Route.ComponentProps) {
  const { context, event, month, cells, day, slots, error, hint, nextFree } = loaderData;
  const bookingMail = useBookingMail();
  const base = new URLSearchParams(
    context.demo ? { demo: "1" } : { anfrage: String(context.requestId) },
  );
  const href = (params: Record<string, string>) =>
    `/termin?${new URLSearchParams({ ...Object.fromEntries(base), ...params })}`;
  const success = actionData && "success" in actionData ? actionData.success : null;
  const actionError = actionData && "error" in actionData ? actionData.error : null;

  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <Link
        to={context.demo ? "/admin/settings" : "/#history"}
        className="text-sm text-indigo-700 underline dark:text-indigo-300"
      >
        ← Zurück
      </Link>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-3 text-2xl font-bold">{event?.name ?? DEFAULT_EVENT_TITLE}</h1>
        {!event ? (
          <Alert tone="warning">
            Terminbuchungen sind derzeit nicht möglich. Wir melden uns bei dir, um einen Termin zu
            vereinbaren.
          </Alert>
        ) : success ? (
          <>
            <BookingSuccess
              start={success.start}
              end={success.end}
              demo={success.demo}
              videoUrl={success.videoUrl}
              calendarHref={
                context.requestId && !success.demo
                  ? `/termin/kalender?anfrage=${context.requestId}`
                  : null
              }
            />
            {success.sample ? <DemoRequestCard request={success.sample} /> : null}
            <p className="text-center">
              <Link
                to={context.demo ? "/admin/settings" : "/#history"}
                className={buttonClass("primary", "sm")}
              >
                Fertig
              </Link>
            </p>
          </>
        ) : context.booked ? (
          <>
            <Alert tone="success">
              Für diese Anfrage ist bereits ein Demo-Termin gebucht.{" "}
              {bookingMail
                ? "Die Details findest du in deiner Bestätigungs-E-Mail."
                : "Eine Bestätigung per E-Mail können wir gerade nicht senden – die Details findest du hier und unter „Meine Anfragen“."}
            </Alert>
            {context.appointment && context.requestId ? (
              <AppointmentTrace requestId={context.requestId} appointment={context.appointment} />
            ) : null}
          </>
        ) : (
          <div className="space-y-5">
            <BookingHeader event={event} requesterName={context.name} />
            {context.demo ? <DemoRequestCard /> : null}
            <SlotPicker
              month={month}
              cells={cells}
              day={day}
              slots={slots}
              error={actionError ?? error}
              hint={hint}
              nextFree={nextFree}
              href={href}
              submitLabel="Termin verbindlich buchen"
            />
          </div>
        )}
      </div>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <VisitorError
      error={error}
      title="Demo-Termin buchen"
      fallback="Die Terminbuchung konnte nicht geladen werden."
    />
  );
}
