import { type ReactNode, useEffect, useRef } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { CheckIcon } from "~/components/ui/icons";
import {
  bookingDaysHint,
  type CalendarCell,
  dayLabel,
  type IsoDay,
  monthLabel,
  monthOf,
  NO_SLOTS_TEXT,
  WEEKDAY_LABELS,
} from "~/lib/booking-calendar";
import { formatLongDay, formatTime } from "~/lib/format";

export type EventInfo = { name: string; description: string; duration: number };
export type SlotView = { time: string; formatted: string };

/** Header of the dialog: event name, sanitised description, duration, 'Für: ' name. */
export function BookingHeader({
  event,
  requesterName,
}: {
  event: EventInfo;
  requesterName: string;
}) {
  return (
    <div className="space-y-1 text-sm text-slate-600 dark:text-slate-300">
      {event.description ? (
        // Sanitised on the server with sanitize-html (booking-api.server.ts).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised event-type HTML
        <div className="prose-sm" dangerouslySetInnerHTML={{ __html: event.description }} />
      ) : null}
      <p>
        Dauer: <strong>{event.duration} Minuten</strong>
      </p>
      <p>
        Für: <strong>{requesterName}</strong>
      </p>
    </div>
  );
}

/**
 * How the calendar's month steps and days work: links that keep the state in the URL (no JS,
 * the booking and reschedule pages) or buttons (the JS booking dialog). `day` takes any day,
 * also one of another month (the jump to the next free day), and shows that day's month.
 */
export type CalendarControls =
  | { links: { month: (direction: -1 | 1) => string; day: (day: IsoDay) => string } }
  | { buttons: { month: (direction: -1 | 1) => void; day: (day: IsoDay) => void } };

const navClass =
  "inline-flex h-9 w-9 items-center justify-center rounded-lg border border-slate-300 text-lg hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";

function MonthStep({ direction, controls }: { direction: -1 | 1; controls: CalendarControls }) {
  const label = direction < 0 ? "Vorheriger Monat" : "Nächster Monat";
  const arrow = direction < 0 ? "‹" : "›";
  return "links" in controls ? (
    <Link to={controls.links.month(direction)} className={navClass} aria-label={label}>
      {arrow}
    </Link>
  ) : (
    <button
      type="button"
      className={navClass}
      aria-label={label}
      onClick={() => controls.buttons.month(direction)}
    >
      {arrow}
    </button>
  );
}

function Day({
  cell,
  className,
  selected,
  controls,
}: {
  cell: CalendarCell;
  className: string;
  selected: boolean;
  controls: CalendarControls;
}) {
  const label = dayLabel(cell.day);
  if ("buttons" in controls)
    return (
      <button
        type="button"
        className={`${className} w-full`}
        disabled={!cell.selectable}
        aria-label={label}
        aria-pressed={selected}
        onClick={() => controls.buttons.day(cell.day)}
      >
        {cell.dayOfMonth}
      </button>
    );
  return cell.selectable ? (
    <Link
      to={controls.links.day(cell.day)}
      className={`${className} w-full`}
      aria-label={label}
      aria-current={selected ? "date" : undefined}
    >
      {cell.dayOfMonth}
    </Link>
  ) : (
    <span className={className} aria-disabled="true">
      {cell.dayOfMonth}
    </span>
  );
}

/**
 * The month calendar (42 cells, Sunday first, de-DE) with its month steps. `headingLevel`: the
 * month's heading, one below the surrounding one (3 in the dialog, 2 on the pages, whose h1 it
 * follows).
 */
export function CalendarGrid({
  month,
  cells,
  selectedDay,
  controls,
  headingLevel = 3,
  hint = bookingDaysHint(),
  nextFree = null,
}: {
  /** Under the grid: which weekdays have times (default: the spec's Mon–Fri sentences). */
  hint?: string;
  /**
   * The first day the calendar offers at all (`nextOpenDay`): a month with no selectable day
   * before it points there, so a visitor at a month's end is not left with a grey calendar.
   */
  nextFree?: IsoDay | null;
  month: string;
  cells: CalendarCell[];
  selectedDay: IsoDay | null;
  controls: CalendarControls;
  headingLevel?: 2 | 3;
}) {
  const MonthHeading = headingLevel === 2 ? "h2" : "h3";
  const jumpTo =
    nextFree && monthOf(nextFree) > month && !cells.some((c) => c.selectable) ? nextFree : null;
  // The jump's button goes away with the month it stood under: the chosen day takes the focus.
  const grid = useRef<HTMLDivElement>(null);
  const jumped = useRef(false);
  useEffect(() => {
    if (!jumped.current || !selectedDay) return;
    jumped.current = false;
    grid.current?.querySelector<HTMLElement>("[aria-pressed=true]")?.focus();
  }, [selectedDay]);
  return (
    <div>
      <div className="mb-3 flex items-center justify-between">
        <MonthStep direction={-1} controls={controls} />
        <MonthHeading className="font-semibold" aria-live="polite">
          {monthLabel(month)}
        </MonthHeading>
        <MonthStep direction={1} controls={controls} />
      </div>
      <div
        className="grid grid-cols-7 gap-1 text-center text-xs font-medium text-slate-500 dark:text-slate-400"
        aria-hidden="true"
      >
        {WEEKDAY_LABELS.map((d) => (
          <span key={d}>{d}</span>
        ))}
      </div>
      <div ref={grid} className="mt-1 grid grid-cols-7 gap-1">
        {cells.map((cell) => {
          const selected = cell.day === selectedDay;
          const className = [
            "flex h-10 items-center justify-center rounded-lg text-sm",
            !cell.inMonth ? "text-slate-300 dark:text-slate-700" : "",
            cell.selectable
              ? selected
                ? "bg-indigo-600 font-semibold text-white"
                : "font-medium text-slate-900 hover:bg-indigo-50 dark:text-slate-100 dark:hover:bg-indigo-950"
              : "cursor-not-allowed text-slate-400 line-through decoration-transparent dark:text-slate-600",
            cell.isToday && !selected ? "ring-1 ring-indigo-400" : "",
          ].join(" ");
          return (
            <div key={cell.day}>
              <Day cell={cell} className={className} selected={selected} controls={controls} />
            </div>
          );
        })}
      </div>
      <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">{hint}</p>
      {jumpTo ? (
        <div className="mt-3 space-y-2 rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-slate-700 dark:border-indigo-900 dark:bg-indigo-950 dark:text-slate-200">
          <p>
            Im {monthLabel(month)} ist kein Tag{" "}
            {cells.some((c) => c.isToday && c.inMonth) ? "mehr frei" : "frei"}.
          </p>
          {"links" in controls ? (
            <Link to={controls.links.day(jumpTo)} className={buttonClass("secondary")}>
              Zum nächsten freien Tag: {dayLabel(jumpTo)}
            </Link>
          ) : (
            <button
              type="button"
              className={buttonClass("secondary")}
              onClick={() => {
                jumped.current = true;
                controls.buttons.day(jumpTo);
              }}
            >
              Zum nächsten freien Tag: {dayLabel(jumpTo)}
            </button>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** The time list: a 3-column grid, max height 80 (scrollable), or the empty text. */
export function TimeGrid({
  slots,
  loading,
  children,
}: {
  slots: SlotView[] | null;
  loading: boolean;
  children: ReactNode;
}) {
  if (loading)
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400" role="status">
        Freie Zeiten werden geladen …
      </p>
    );
  if (!slots)
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400">Wähle zuerst einen Tag aus.</p>
    );
  if (!slots.length)
    return <p className="text-sm text-slate-500 dark:text-slate-400">{NO_SLOTS_TEXT}</p>;
  return <div className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto pr-1">{children}</div>;
}

export const timeButtonClass = (selected: boolean) =>
  `rounded-lg border px-2 py-2 text-sm font-medium ${selected ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 hover:border-indigo-400 dark:border-slate-600"}`;

export const BOOKING_MAIL_PROMISE = "Du erhältst eine Bestätigungs-E-Mail mit allen Details.";
/** Without a way to send it (no SMTP), no mail is promised (a deliberate deviation, README). */
export const BOOKING_WITHOUT_MAIL =
  "Dein Termin ist gebucht. Eine Bestätigung per E-Mail können wir gerade nicht senden.";

/** From the root loader: without SMTP (and without Cal.com) no confirmation mail can leave. */
export function useBookingMail(): boolean {
  return (
    (useRouteLoaderData("root") as { bookingMail?: boolean } | undefined)?.bookingMail !== false
  );
}
/**
 * Success view: 'Termin erfolgreich gebucht!' with date and start–end time, the video link when
 * one is set (the fixed room or the appointment's own) and "Zum Kalender hinzufügen" (.ics).
 */
export function BookingSuccess({
  start,
  end,
  demo,
  videoUrl,
  calendarHref,
}: {
  start: string;
  end: string;
  demo?: boolean;
  videoUrl?: string | null;
  /** The booked demo as .ics (the visitor's own request; none in the admin demo). */
  calendarHref?: string | null;
}) {
  const time = formatTime;
  const day = formatLongDay(start);
  const bookingMail = useBookingMail();
  return (
    <div role="status" className="space-y-2 py-6 text-center">
      <p className="flex justify-center text-green-700 dark:text-green-300">
        <CheckIcon size={40} />
      </p>
      <p className="text-lg font-semibold">Termin erfolgreich gebucht!</p>
      <p>{bookingMail ? BOOKING_MAIL_PROMISE : BOOKING_WITHOUT_MAIL}</p>
      <p className="font-medium">
        {day}, {time(start)} – {time(end)} Uhr
      </p>
      {videoUrl ? (
        <p className="break-all">
          Videocall:{" "}
          <a
            href={videoUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            {videoUrl}
          </a>
        </p>
      ) : null}
      {calendarHref ? (
        <p className="pt-2">
          <a href={calendarHref} download className={buttonClass("secondary", "sm")}>
            Zum Kalender hinzufügen
          </a>
        </p>
      ) : null}
      {demo ? (
        <p className="text-sm text-amber-700 dark:text-amber-300">
          Demo-Modus: Es wurde nichts gebucht.
        </p>
      ) : null}
    </div>
  );
}
