import type { ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { CheckIcon, CloseIcon } from "~/components/ui/icons";
import {
  isFaded,
  SLOT_GONE,
  type StatusGroup,
  type StatusTone,
  statusGroup,
  statusLabel,
  statusTone,
} from "~/lib/appointment-status";
import type { AppointmentJson } from "~/lib/appointments";
import { cacheAgeLabel } from "~/lib/appointments";
import { bookingDuration } from "~/lib/booking-calendar";
import { formatDateTime, formatRequestId } from "~/lib/format";
import { AppointmentCalendar } from "./appointment-calendar";
import { AppointmentChanges } from "./appointment-changes";
import { AppointmentVideoLink } from "./appointment-video-link";

const TONE_BADGES: Record<StatusTone, string> = {
  green: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  yellow: "bg-yellow-100 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-100",
  red: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  grey: "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  neutral: "bg-slate-100 text-slate-800 dark:bg-slate-900 dark:text-slate-200",
};
const GROUP_ICONS: Record<StatusGroup, ReactNode> = {
  confirmed: <CheckIcon size={14} />,
  pending: "…",
  cancelled: <CloseIcon size={14} />,
  other: "•",
};

/**
 * One appointment on Termine (and in a request's full-screen view): status badge by tone,
 * cancelled and deleted at half opacity. `mailed`: whether changes made here reach the visitor by
 * mail (SMTP, a request not held back) — the card promises a mail only then. `level`: its title's
 * heading level.
 */
export function AppointmentCard({
  a,
  mailed,
  level = 2,
}: {
  a: AppointmentJson;
  mailed: boolean;
  level?: 2 | 3 | 4;
}) {
  const Title = `h${level}` as const;
  const fetcher = useFetcher();
  const group = statusGroup(a.status);
  const builtin = a.provider === "builtin";
  // An upcoming built-in booking can be moved and cancelled here (ADR 282).
  const changeable = builtin && group !== "cancelled" && Date.parse(a.startTime) > Date.now();
  return (
    <li
      id={`termin-${a.id}`}
      data-testid="appointment-card"
      data-status={a.status}
      className={`scroll-mt-20 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${isFaded(a.status) && !a.slotGone ? "opacity-50" : ""}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Title className="font-semibold">{a.eventType.name}</Title>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {formatDateTime(a.startTime)} Uhr · {bookingDuration(a.eventType.duration)} Min
            {a.calcomData.location ? ` · ${a.calcomData.location}` : ""}
          </p>
        </div>
        <span
          className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONE_BADGES[statusTone(a.status)]}`}
        >
          <span aria-hidden="true" className="inline-flex">
            {GROUP_ICONS[group]}
          </span>
          {statusLabel(a.status)}
        </span>
      </div>
      {a.request ? (
        <div className="mt-3 space-y-1 text-sm">
          <p className="font-medium">{a.request.name}</p>
          <p>
            <a
              className="text-indigo-700 underline dark:text-indigo-300"
              href={`mailto:${a.request.email}`}
            >
              {a.request.email}
            </a>{" "}
            ·{" "}
            <a
              className="text-indigo-700 underline dark:text-indigo-300"
              href={`tel:${a.request.phone.replace(/[^\d+]/g, "")}`}
            >
              {a.request.phone}
            </a>
          </p>
          <p className="line-clamp-3 text-slate-600 dark:text-slate-300">{a.request.summary}</p>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
          Kontaktdaten nicht verfügbar
        </p>
      )}
      {/* Not faded like other cancelled cards: the notice must stay readable (ADR 355). */}
      {a.slotGone ? (
        <p
          className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-slot-gone=""
        >
          <strong>{SLOT_GONE}</strong>: gebucht, während die Anfrage in der Prüfung war; bei der
          Freigabe war der Platz vergeben. Die Eingangsbestätigung bietet einen neuen Termin an.
        </p>
      ) : null}
      <AppointmentVideoLink a={a} editable={changeable} mailed={mailed} />
      {builtin ? <AppointmentCalendar a={a} changeable={changeable} /> : null}
      {builtin ? (
        // Built-in bookings have no scheduling-service id and nothing to refresh (ADR 282, a
        // deliberate deviation, README): no 'Termin-ID: N/A', no cache age, no "Aktualisieren".
        a.request ? (
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
            Anfrage: #{formatRequestId(a.request.id)}
          </p>
        ) : null
      ) : (
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
          {/* The spec's 'N/A' stands for a missing scheduling-service id only; without a linked
              request the card already says 'Kontaktdaten nicht verfügbar'. */}
          {a.request ? `Anfrage: #${formatRequestId(a.request.id)} · ` : null}
          Termin-ID: {a.calcomEventId ?? "N/A"} · {cacheAgeLabel(a.cacheInfo.age)}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {a.request ? (
          <Link
            to={`/admin/requests?requestId=${a.request.id}`}
            className={buttonClass("secondary", "sm")}
          >
            Zur Anfrage
          </Link>
        ) : null}
        {a.calcomData.calcomUrl ? (
          <a
            href={a.calcomData.calcomUrl}
            target="_blank"
            rel="noreferrer"
            className={buttonClass("secondary", "sm")}
          >
            Bei Cal.com öffnen
          </a>
        ) : a.provider === "calcom" && a.calcomEventId ? (
          <a
            href={`https://app.cal.com/booking/${a.calcomEventId}`}
            target="_blank"
            rel="noreferrer"
            className={buttonClass("secondary", "sm")}
          >
            Bei Cal.com öffnen
          </a>
        ) : null}
        {changeable ? <AppointmentChanges a={a} mailed={mailed} /> : null}
        {builtin ? null : (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="refresh" />
            <input type="hidden" name="id" value={a.id} />
            <Button
              type="submit"
              size="sm"
              variant="ghost"
              disabled={fetcher.state !== "idle"}
              aria-label={`Termin ${a.id} aktualisieren`}
            >
              {fetcher.state !== "idle" ? "Aktualisiert …" : "Aktualisieren"}
            </Button>
          </fetcher.Form>
        )}
      </div>
    </li>
  );
}
