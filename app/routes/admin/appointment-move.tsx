import { Link } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { SlotPicker } from "~/components/booking/slot-picker";
import { bookingDuration } from "~/lib/booking-calendar";
import { formatDateTime, formatRequestId } from "~/lib/format";
import { isAdminReturnPath } from "~/lib/return-path";
import { requireAdmin } from "~/server/accounts/auth.server";
import { movableBooking, visitorMailed } from "~/server/appointments/admin-changes.server";
import { slotPickerState } from "~/server/appointments/booking-api.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId, readForm } from "~/server/http/http.server";
import type { Route } from "./+types/appointment-move";
import { handleMoveForm } from "./appointments.server";

export const meta: Route.MetaFunction = () => [{ title: "Termin verschieben" }];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const LIST = "/admin/appointments";
/** A request's full-screen view lists its appointments with the same cards. */
const REQUESTS = "/admin/requests";

/** The list the admin came from (`zurueck`: Termine or a request's view), else Termine. */
function backOf(url: URL) {
  const back = url.searchParams.get("zurueck");
  return isAdminReturnPath(back) && (back.startsWith(LIST) || back.startsWith(REQUESTS))
    ? back
    : LIST;
}

/** A booking that cannot be moved (gone, cancelled, past, Cal.com) leads back to the list. */
async function booking(request: Request, params: Route.LoaderArgs["params"]) {
  const url = new URL(request.url);
  const back = backOf(url);
  const found = movableBooking(parseId(params.id) ?? 0);
  if (!found.ok) throw await redirectWithToast(back, { type: "error", message: found.error });
  return { url, back, found };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { url, back, found } = await booking(request, params);
  const picker = await slotPickerState(url, true, found);
  // The visitor is mailed only with SMTP (and a request that is not held back).
  return {
    appointment: found.appointment,
    picker,
    back,
    search: url.search,
    mailed: visitorMailed(found.id),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const { back, found } = await booking(request, params);
  return handleMoveForm(admin.id, found.id, await readForm(request), back);
}

export default function AppointmentMovePage({ loaderData, actionData }: Route.ComponentProps) {
  const { appointment: a, picker, back } = loaderData;
  const href = (p: Record<string, string>) =>
    `${LIST}/${a.id}/verschieben?${new URLSearchParams({ zurueck: back, ...p })}`;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Termin verschieben</h1>
        <Link to={back} className="text-sm text-indigo-700 underline dark:text-indigo-300">
          {back.startsWith(REQUESTS) ? "Zurück zur Anfrage" : "Zurück zu den Terminen"}
        </Link>
      </div>
      <section
        aria-labelledby="current-heading"
        className="rounded-xl border border-slate-200 bg-white p-5 text-sm shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="current-heading" className="font-semibold">
          Bisher: {formatDateTime(a.startTime)} Uhr · {bookingDuration(a.eventType.duration)} Min
        </h2>
        <p className="mt-1 text-slate-600 dark:text-slate-300">
          {a.request
            ? `${a.request.name} · Anfrage #${formatRequestId(a.request.id)}${loaderData.mailed ? " – erhält die neue Einladung per E-Mail." : " – ohne E-Mail-Versand erfährt der Kunde die neue Zeit nicht automatisch."}`
            : "Kontaktdaten nicht verfügbar"}
        </p>
      </section>
      <section
        aria-label="Neue Zeit wählen"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <SlotPicker
          {...picker}
          error={actionData?.error ?? picker.error}
          href={href}
          submitLabel="Termin verschieben"
        />
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Laden des Termins" />;
}
