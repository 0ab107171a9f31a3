import { formatRequestId } from "~/lib/format";
import { AppointmentTrace, type BookedAppointment } from "./appointment-trace";
import { BookingOffer } from "./booking-offer";

export type SubmittedRequest = {
  id: number;
  name: string;
  booked: boolean;
  /** The booked demo, when known (after the no-JS booking, or from the dialog's answer). */
  appointment?: BookedAppointment | null;
};

/** The card after a successful submission, with the demo offer while booking is on and none is booked. */
export function SubmissionSuccess({
  submitted,
  bookingEnabled,
  onBooked,
}: {
  submitted: SubmittedRequest;
  bookingEnabled: boolean;
  onBooked: (appointment?: BookedAppointment) => void;
}) {
  return (
    <div
      role="status"
      className="mt-6 rounded-xl border border-green-200 bg-green-50 p-5 dark:border-green-900 dark:bg-green-950"
      data-testid="submission-success"
    >
      <p className="text-lg font-semibold text-green-900 dark:text-green-100">
        {`Vielen Dank${submitted.name ? `, ${submitted.name}` : ""}! Deine Anfrage #${formatRequestId(submitted.id)} ist bei uns eingegangen.`}
      </p>
      <p className="mt-1 text-green-900 dark:text-green-100">
        Wir sehen sie uns sofort an. Deine Testversion bekommst du innerhalb von drei Tagen.
      </p>
      {submitted.appointment ? (
        <AppointmentTrace requestId={submitted.id} appointment={submitted.appointment} />
      ) : null}
      {submitted.booked || !bookingEnabled ? null : (
        <BookingOffer requestId={submitted.id} requesterName={submitted.name} onBooked={onBooked} />
      )}
    </div>
  );
}
