import { useEffect, useRef, useState } from "react";
import type { BookedAppointment } from "~/components/landing/appointment-trace";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { reveal } from "~/components/ui/reveal";
import { ApiError, apiFetch } from "~/lib/api-client";
import {
  addMonths,
  berlinToday,
  bookingDuration,
  bookingHint,
  calendarGrid,
  DEFAULT_DISPLAY_DURATION,
  DEFAULT_EVENT_TITLE,
  dayBoundsUtc,
  dayLabel,
  firstBookableDay,
  type IsoDay,
  lastBookableDay,
  laterDay,
  monthOf,
  nextOpenDay,
  PICK_DATE_AND_TIME,
  WEEKDAYS_MON_FRI,
} from "~/lib/booking-calendar";
import type { DemoRequest } from "~/lib/demo-request";
import {
  BookingHeader,
  BookingSuccess,
  CalendarGrid,
  type EventInfo,
  type SlotView,
  TimeGrid,
  timeButtonClass,
} from "./booking-panel";
import { DemoRequestCard } from "./demo-request-card";

export type BookingDialogProps = {
  requestId: number;
  requesterName: string;
  open: boolean;
  onClose: () => void;
  /** After the success view: the booked time (the visitor's page shows it with the .ics link). */
  onBooked?: (booked: BookedAppointment) => void;
  /** Admin demo: real slots and the success view, nothing booked. */
  demo?: boolean;
};

/** How long the dialog waits for the event type before it shows the calendar without it. */
const EVENT_TYPE_WAIT_MS = 2500;
const SLOTS_NOT_OK = "Zeitslots konnten nicht geladen werden. Bitte versuche es später erneut.";
const SLOTS_BAD_SHAPE = "Unerwartete API-Antwort. Bitte versuche es später erneut.";
const SLOTS_FAILED = "Fehler beim Laden der Zeitslots. Bitte versuche es später erneut.";

/** The demo-booking dialog (spec §2): calendar, times, summary, confirm, success with auto-close. */
export function BookingDialog({
  requestId,
  requesterName,
  open,
  onClose,
  onBooked,
  demo = false,
}: BookingDialogProps) {
  const [event, setEvent] = useState<EventInfo>({
    name: DEFAULT_EVENT_TITLE,
    description: "",
    duration: DEFAULT_DISPLAY_DURATION,
  });
  const [eventKey, setEventKey] = useState("demo");
  const [leadDays, setLeadDays] = useState(1);
  const [openDays, setOpenDays] = useState<readonly number[]>(WEEKDAYS_MON_FRI);
  const [closedDays, setClosedDays] = useState<readonly IsoDay[]>([]);
  const [horizonDays, setHorizonDays] = useState(0);
  const [month, setMonth] = useState(monthOf(berlinToday()));
  const [day, setDay] = useState<IsoDay | null>(null);
  const [time, setTime] = useState<SlotView | null>(null);
  const [slots, setSlots] = useState<SlotView[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [success, setSuccess] = useState<{
    start: string;
    end: string;
    sample?: DemoRequest;
    videoUrl?: string | null;
  } | null>(null);
  /** The event type's own duration once loaded; the booking falls back to 30 minutes (spec §9). */
  const [loadedDuration, setLoadedDuration] = useState<number | null>(null);
  /** The configuration and event type have answered (or failed): before, nothing is offered. */
  const [ready, setReady] = useState(false);
  const slotRequest = useRef(0);
  // The booking's answer takes the focus and is scrolled into view inside the dialog (ADR 210):
  // the success view, or the error once the day's fresh slots (after a taken slot) are shown.
  const successRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const revealError = useRef(false);
  useEffect(() => {
    if (success) reveal(successRef.current);
  }, [success]);
  // A time picked: the summary with the confirm button comes into view (on a phone it lies below
  // the times), the focus stays on the chosen time.
  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!time) return;
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    summaryRef.current?.scrollIntoView({ block: "nearest", behavior: reduced ? "auto" : "smooth" });
  }, [time]);
  useEffect(() => {
    if (!revealError.current || loading || !error) return;
    revealError.current = false;
    reveal(errorRef.current, { block: "nearest" });
  }, [error, loading]);

  // On open: reset everything, current month, load lead time and event type.
  useEffect(() => {
    if (!open) return;
    setDay(null);
    setTime(null);
    setSlots(null);
    setError(null);
    setSuccess(null);
    setLoadedDuration(null);
    setMonth(monthOf(berlinToday()));
    setReady(false);
    let live = true;
    const configuration = apiFetch<{
      bookingLeadTime?: { days: number };
      bookingWeekdays?: number[];
      bookingClosedDays?: IsoDay[];
      bookingHorizonDays?: number;
    }>("/api/configuration?view=public")
      .then((c) => {
        setLeadDays(c.bookingLeadTime?.days ?? 1);
        if (Array.isArray(c.bookingWeekdays)) setOpenDays(c.bookingWeekdays);
        if (Array.isArray(c.bookingClosedDays)) setClosedDays(c.bookingClosedDays);
        setHorizonDays(c.bookingHorizonDays ?? 0);
      })
      .catch((e) => console.warn("Vorlaufzeit konnte nicht geladen werden", e));
    const eventType = apiFetch<{ eventType?: EventInfo & { key: string } }>(
      "/api/event-type-details",
    )
      .then((r) => {
        if (r.eventType) {
          setEvent({
            name: r.eventType.name,
            description: r.eventType.description,
            duration: r.eventType.duration || DEFAULT_DISPLAY_DURATION,
          });
          setEventKey(r.eventType.key);
          setLoadedDuration(r.eventType.duration || null);
        }
      })
      .catch(() => undefined);
    // The calendar comes with its rules (no default lead time first) and, unless the event type
    // takes longer than EVENT_TYPE_WAIT_MS (a slow calendar provider), with the event's duration.
    const eventTypeOrTimeout = Promise.race([
      eventType,
      new Promise((resolve) => setTimeout(resolve, EVENT_TYPE_WAIT_MS)),
    ]);
    void Promise.allSettled([configuration, eventTypeOrTimeout]).then(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [open]);

  // After success: the completion callback fires after 2 s and the modal closes.
  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => {
      onBooked?.({
        start: success.start,
        end: success.end,
        title: event.name,
        videoUrl: success.videoUrl ?? null,
      });
      onClose();
    }, 2000);
    return () => clearTimeout(timer);
  }, [success, onBooked, onClose, event.name]);

  const firstDay = firstBookableDay(leadDays);
  const lastDay = lastBookableDay(horizonDays);
  const cells = calendarGrid(month, firstDay, berlinToday(), openDays, closedDays, lastDay);
  const nextFree = nextOpenDay(laterDay(firstDay, `${month}-01`), openDays, closedDays, lastDay);

  function changeMonth(direction: -1 | 1) {
    setMonth((m) => addMonths(m, direction));
    setDay(null);
    setTime(null);
    setSlots(null);
  }

  async function pickDay(next: IsoDay, keepError = false) {
    setDay(next);
    setTime(null);
    if (!keepError) setError(null);
    setSlots(null);
    setLoading(true);
    const ticket = ++slotRequest.current;
    const { start, end } = dayBoundsUtc(next);
    try {
      const res = await apiFetch<{ success?: boolean; slots?: unknown }>(
        "/api/calcom/available-slots",
        {
          method: "POST",
          json: {
            startDate: start.toISOString(),
            endDate: end.toISOString(),
            eventTypeKey: eventKey,
            day: next,
          },
        },
      );
      if (ticket !== slotRequest.current) return;
      if (!Array.isArray(res.slots)) {
        setError(SLOTS_BAD_SHAPE);
        setSlots([]);
        return;
      }
      setSlots((res.slots as SlotView[]).filter((s) => typeof s?.time === "string"));
    } catch (e) {
      if (ticket !== slotRequest.current) return;
      setSlots([]);
      setError(e instanceof ApiError && e.reason === "http" ? SLOTS_NOT_OK : SLOTS_FAILED);
    } finally {
      if (ticket === slotRequest.current) setLoading(false);
    }
  }

  async function confirm() {
    if (!day || !time) {
      setError(PICK_DATE_AND_TIME);
      return;
    }
    setSubmitting(true);
    setError(null);
    const end = new Date(
      new Date(time.time).getTime() + bookingDuration(loadedDuration) * 60_000,
    ).toISOString();
    try {
      const res = await apiFetch<{
        appointment?: {
          startTime: string;
          endTime: string;
          request?: DemoRequest;
          videoUrl?: string | null;
        };
      }>("/api/calcom/book-appointment", {
        method: "POST",
        json: {
          requestId: demo ? undefined : requestId,
          startTime: time.time,
          endTime: end,
          timeZone: "Europe/Berlin",
          eventTypeKey: eventKey,
          demo,
        },
      });
      setSuccess({
        start: res.appointment?.startTime ?? time.time,
        end: res.appointment?.endTime ?? end,
        sample: demo ? res.appointment?.request : undefined,
        videoUrl: demo ? null : (res.appointment?.videoUrl ?? null),
      });
    } catch (e) {
      revealError.current = true;
      setError(
        e instanceof ApiError && e.fromServer ? e.message : "Fehler beim Buchen des Termins",
      );
      // Slot taken: keep the message and show the fresh slots of that day.
      if (e instanceof ApiError && e.status === 409 && day) void pickDay(day, true);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={event.name || DEFAULT_EVENT_TITLE}
      size="xl"
      dismissible={!submitting}
    >
      {success ? (
        <div
          ref={successRef}
          tabIndex={-1}
          data-reveal=""
          data-testid="booking-result"
          className="space-y-4 focus:outline-none"
        >
          <BookingSuccess
            start={success.start}
            end={success.end}
            demo={demo}
            videoUrl={success.videoUrl}
            calendarHref={demo ? null : `/termin/kalender?anfrage=${requestId}`}
          />
          {demo ? <DemoRequestCard request={success.sample} /> : null}
        </div>
      ) : !ready ? (
        <p className="text-sm text-slate-600 dark:text-slate-300" role="status">
          Terminbuchung wird geladen …
        </p>
      ) : (
        <div className="space-y-5">
          <BookingHeader event={event} requesterName={requesterName} />
          {demo ? <DemoRequestCard /> : null}
          <div className="grid gap-6 md:grid-cols-2">
            <CalendarGrid
              month={month}
              cells={cells}
              selectedDay={day}
              hint={bookingHint(openDays, lastDay)}
              nextFree={nextFree}
              controls={{
                buttons: {
                  month: changeMonth,
                  // A day of another month: the jump to the next free day shows its month.
                  day: (next) => {
                    setMonth(monthOf(next));
                    pickDay(next);
                  },
                },
              }}
            />
            <div>
              <h3 className="mb-3 font-semibold">{day ? dayLabel(day) : "Uhrzeit"}</h3>
              <TimeGrid slots={slots} loading={loading}>
                {slots?.map((slot) => (
                  <button
                    key={slot.time}
                    type="button"
                    className={timeButtonClass(time?.time === slot.time)}
                    aria-pressed={time?.time === slot.time}
                    onClick={() => {
                      setTime(slot);
                      setError(null);
                    }}
                  >
                    {slot.formatted}
                  </button>
                ))}
              </TimeGrid>
            </div>
          </div>
          {error ? (
            <div ref={errorRef} tabIndex={-1} data-reveal="" className="focus:outline-none">
              <Alert>{error}</Alert>
            </div>
          ) : null}
          {day && time ? (
            <div
              ref={summaryRef}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 p-4 dark:bg-slate-800"
            >
              <p className="text-sm">
                <strong>{dayLabel(day)}</strong>, {time.formatted} Uhr · {event.duration} Minuten
              </p>
              <Button onClick={confirm} disabled={submitting}>
                {submitting ? "Wird gebucht …" : "Termin verbindlich buchen"}
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
