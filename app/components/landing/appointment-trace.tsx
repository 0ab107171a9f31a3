import { buttonClass } from "~/components/ui/button";
import { formatLongDay, formatTime } from "~/lib/format";

export type BookedAppointment = {
  start: string;
  end: string;
  title: string;
  videoUrl?: string | null;
};

/** "Montag, 1. Dezember 2026, 10:00 – 10:30 Uhr" */
export function appointmentWhen(a: { start: string; end: string }) {
  return `${formatLongDay(a.start)}, ${formatTime(a.start)} – ${formatTime(a.end)} Uhr`;
}

/**
 * A booked demo: date and time, its video link when one is set, and the .ics download (a plain
 * link, works without JS).
 */
export function AppointmentTrace({
  requestId,
  appointment,
}: {
  requestId: number;
  appointment: BookedAppointment;
}) {
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-indigo-200 bg-white p-3 text-sm dark:border-indigo-900 dark:bg-slate-900"
      data-testid="booked-demo"
    >
      <p className="text-slate-900 dark:text-slate-100">
        <span className="font-semibold">Dein Demo-Termin:</span> {appointmentWhen(appointment)}
      </p>
      {appointment.videoUrl ? (
        <p className="basis-full break-all text-slate-900 dark:text-slate-100">
          Videocall:{" "}
          <a
            href={appointment.videoUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            {appointment.videoUrl}
          </a>
        </p>
      ) : null}
      <a
        href={`/termin/kalender?anfrage=${requestId}`}
        download
        className={buttonClass("secondary", "sm")}
      >
        Zum Kalender hinzufügen
      </a>
    </div>
  );
}

/** For a request without a demo: the booking page (server-rendered, works without JS). */
export function BookDemoLink({ requestId }: { requestId: number }) {
  return (
    <a href={`/termin?anfrage=${requestId}`} className={buttonClass("secondary", "sm")}>
      Demo-Termin buchen
    </a>
  );
}
