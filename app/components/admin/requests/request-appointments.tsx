import { AppointmentCard } from "~/components/admin/appointments/appointment-card";
import type { AppointmentJson } from "~/lib/appointments";

/**
 * The request's appointments in its full-screen view (the next one first): the cards of Termine
 * with their time, status, video link and, for an upcoming built-in booking, "Verschieben" and
 * "Absagen" — the same forms, answered on this view.
 */
export function RequestAppointments({
  appointments,
  mailedIds,
}: {
  appointments: AppointmentJson[];
  /** The appointments whose changes reach the visitor by mail. */
  mailedIds: number[];
}) {
  return (
    <section
      aria-labelledby="fullscreen-appointments"
      className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
      data-request-appointments=""
    >
      <h3 id="fullscreen-appointments" className="mb-3 text-base font-semibold">
        Termine ({appointments.length})
      </h3>
      {appointments.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Zu dieser Anfrage ist kein Termin gebucht.
        </p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {appointments.map((a) => (
            <AppointmentCard key={a.id} a={a} mailed={mailedIds.includes(a.id)} level={4} />
          ))}
        </ul>
      )}
    </section>
  );
}
