import { data, Form, Link } from "react-router";
import { SlotPicker } from "~/components/booking/slot-picker";
import { VisitorError } from "~/components/landing/visitor-error";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import { berlinDayOf, dayLabel } from "~/lib/booking-calendar";
import { formatTime } from "~/lib/format";
import { slotPickerState } from "~/server/appointments/booking-api.server";
import { applyManageForm, managedAppointment } from "~/server/appointments/self-service.server";
import { readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { bookingConfirmationMailed } from "~/server/mail/outbox.server";
import { refuseFilledHoneypot } from "~/server/spam/honeypot.server";
import type { Route } from "./+types/termin-verwalten";

export const meta: Route.MetaFunction = () => [
  { title: "Demo-Termin verwalten" },
  { name: "robots", content: "noindex" },
];

// The token in the URL must not travel to other sites in a Referer header nor sit in a shared
// cache (same-origin, not no-referrer: that would send "Origin: null" with the forms).
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  // A slot look-up beyond its limit (ADR 356): the page says so, with the wait as Retry-After.
  const retryAfter = loaderHeaders.get("Retry-After");
  return {
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "same-origin",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}

const STEPS = ["absagen", "verschieben"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const { view, minutes, id, start } = managedAppointment(token);
  const step = view.cancelled
    ? null
    : (STEPS.find((s) => s === url.searchParams.get("schritt")) ?? null);
  const picker =
    step === "verschieben" && view.provider === "builtin"
      ? await slotPickerState(url, true, { id, start, minutes }, clientIp(context))
      : null;
  const done = url.searchParams.get("erledigt");
  const page = {
    token: token as string,
    view,
    step,
    picker,
    done: done === "abgesagt" || done === "verschoben" ? done : null,
    // A mail is promised only when one goes out (built-in bookings: SMTP; Cal.com mails itself).
    mailed: bookingConfirmationMailed(),
  };
  const retryAfter = picker?.retryAfterSeconds ?? null;
  return retryAfter === null
    ? page
    : data(page, { status: 429, headers: { "Retry-After": String(retryAfter) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const form = await readForm(request);
  refuseFilledHoneypot(form);
  return applyManageForm(token, form, clientIp(context));
}

export default function ManageAppointmentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { token, view, step, picker, done } = loaderData;
  const href = (params: Record<string, string>) =>
    `/termin/verwalten?${new URLSearchParams({ token, ...params })}`;
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-4 text-2xl font-bold">Dein Demo-Termin</h1>
        {done === "abgesagt" && view.cancelled ? (
          <Alert tone="success">
            Dein Termin wurde abgesagt.
            {loaderData.mailed ? " Du erhältst eine Bestätigung per E-Mail." : null}
          </Alert>
        ) : null}
        {done === "verschoben" && !view.cancelled ? (
          <Alert tone="success">
            Dein Termin wurde verschoben.
            {loaderData.mailed
              ? " Du erhältst eine neue Kalendereinladung per E-Mail."
              : " Notier dir die neue Zeit – eine E-Mail können wir dir gerade nicht senden."}
          </Alert>
        ) : null}
        {view.cancelled ? (
          <div className="mt-4 space-y-4">
            <p>
              Der Termin am {view.when} Uhr ist abgesagt. Wenn du doch eine Demo möchtest, kannst du
              jederzeit einen neuen Termin buchen.
            </p>
            <div className="flex flex-wrap gap-3">
              {view.bookAgainPath ? (
                <a href={view.bookAgainPath} className={buttonClass("primary", "md")}>
                  Neuen Termin buchen
                </a>
              ) : null}
              {view.requestPath ? (
                <a href={view.requestPath} className={buttonClass("secondary", "md")}>
                  Meine Anfrage ansehen
                </a>
              ) : (
                <Link to="/#history" className={buttonClass("primary", "sm")}>
                  Zur Startseite
                </Link>
              )}
            </div>
          </div>
        ) : (
          <div className="mt-4 space-y-5">
            <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
              <dt className="font-semibold">Termin</dt>
              <dd>{view.title}</dd>
              <dt className="font-semibold">Datum</dt>
              <dd>{dayLabel(berlinDayOf(view.start))}</dd>
              <dt className="font-semibold">Uhrzeit</dt>
              <dd>
                {formatTime(view.start)} – {formatTime(view.end)} Uhr
              </dd>
              {view.provider === "builtin" || view.videoUrl ? (
                <>
                  <dt className="font-semibold">Videocall</dt>
                  <dd className="break-all">
                    {view.videoUrl ? (
                      <a
                        href={view.videoUrl}
                        className="text-indigo-700 underline dark:text-indigo-300"
                        rel="noreferrer"
                      >
                        {view.videoUrl}
                      </a>
                    ) : (
                      "Steht noch nicht fest – du findest ihn hier, sobald wir ihn eingetragen haben."
                    )}
                  </dd>
                </>
              ) : null}
            </dl>
            {step === "absagen" ? (
              <Form method="post" className="relative space-y-4">
                <Honeypot />
                <input type="hidden" name="intent" value="cancel" />
                <p className="font-semibold">Möchtest du diesen Termin wirklich absagen?</p>
                {error ? <Alert>{error}</Alert> : null}
                <div className="flex flex-wrap gap-3">
                  <Button type="submit" variant="danger">
                    Ja, Termin absagen
                  </Button>
                  <Link to={href({})} className={buttonClass("secondary", "md")}>
                    Nein, Termin behalten
                  </Link>
                </div>
              </Form>
            ) : step === "verschieben" && picker ? (
              <section aria-labelledby="reschedule-heading" className="space-y-4">
                <h2 id="reschedule-heading" className="text-lg font-semibold">
                  Neuen Termin wählen
                </h2>
                <SlotPicker
                  {...picker}
                  error={error ?? picker.error}
                  href={(p) => href({ schritt: "verschieben", ...p })}
                  submitLabel="Termin verschieben"
                >
                  <input type="hidden" name="intent" value="reschedule" />
                </SlotPicker>
                <Link
                  to={href({})}
                  className="text-sm text-indigo-700 underline dark:text-indigo-300"
                >
                  Abbrechen
                </Link>
              </section>
            ) : (
              <div className="flex flex-wrap gap-3">
                {view.provider === "builtin" ? (
                  <Link
                    to={href({ schritt: "verschieben" })}
                    className={buttonClass("primary", "md")}
                  >
                    Termin verschieben
                  </Link>
                ) : null}
                <Link to={href({ schritt: "absagen" })} className={buttonClass("secondary", "md")}>
                  Termin absagen
                </Link>
              </div>
            )}
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
      title="Demo-Termin verwalten"
      fallback="Der Termin konnte nicht geladen werden."
    />
  );
}
