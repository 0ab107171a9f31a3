import { type Ref, useEffect, useRef } from "react";
import { useRouteLoaderData } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { reveal } from "~/components/ui/reveal";
import { EMBED_PATH } from "~/lib/embed";
import { formatRequestId } from "~/lib/format";
import type { ScriptFreeCheckView } from "~/lib/script-free-challenge";
import { AppointmentTrace, type BookedAppointment } from "./appointment-trace";
import { BookingOffer, DemoOfferCard } from "./booking-offer";
import { ScriptFreeCheck } from "./script-free-check";

export type SubmittedRequest = {
  id: number;
  name: string;
  booked: boolean;
  /** The booked demo, when known (after the no-JS booking, or from the dialog's answer). */
  appointment?: BookedAppointment | null;
  /** The framed form (ADR 283): the request's signed link to the booking page (full window). */
  bookingHref?: string | null;
  /** After a post without proof of work: the script-free challenge or its outcome (ADR 326). */
  check?: ScriptFreeCheckView | null;
  /** The page's `gesendet` value (the id, or the frame's signed token), for the answer form. */
  sent?: string;
};

/** Without SMTP no confirmation (and so no link to cancel or move the demo) can be mailed. */
export const BOOKED_WITHOUT_MAIL =
  "Eine Bestätigung per E-Mail können wir gerade nicht senden – notier dir den Termin.";

/**
 * The booked demo without a confirmation mail: the visitor notes the date, and learns the way to
 * cancel (withdrawing the request in "Meine Anfragen") and to move it (a further request naming
 * this one).
 */
function NoMailNote({ requestId }: { requestId: number }) {
  return (
    <div
      className="mt-2 space-y-1 text-sm text-green-900 dark:text-green-100"
      data-testid="booked-no-mail"
    >
      <p className="font-semibold">{BOOKED_WITHOUT_MAIL}</p>
      <p>
        Absagen kannst du ihn nur zusammen mit deiner Anfrage: Zieh sie unter{" "}
        <a href="#history" className="font-medium underline underline-offset-2">
          „Meine Anfragen“
        </a>{" "}
        zurück.{" "}
        {`Zum Verschieben schreib uns eine weitere Anfrage mit der Nummer #${formatRequestId(requestId)}.`}
      </p>
    </div>
  );
}

/**
 * The card after a successful submission: the thanks with the request number, the three-day
 * promise (no mail is promised: whether one goes out is not this page's to say), the demo offer
 * while booking is on and none is booked, and the way to the visitor's requests. With JS it takes
 * the form's place, the viewport and the focus (its heading, ADR 210).
 */
export function SubmissionSuccess({
  submitted,
  message,
  bookingEnabled,
  onBooked,
  headingRef,
  onAnother,
  embedded = false,
}: {
  submitted: SubmittedRequest;
  /** The agency's message under the thanks (ADR 268; default: the three-day promise). */
  message: string;
  bookingEnabled: boolean;
  onBooked: (appointment?: BookedAppointment) => void;
  headingRef?: Ref<HTMLHeadingElement>;
  /** With JS: show the emptied form again (without JS it stands below the card). */
  onAnother?: () => void;
  /**
   * In the frame (/embed): the booking opens in the whole window through the request's signed
   * link (the frame holds no history cookie), and there is no history to link to.
   */
  embedded?: boolean;
}) {
  // From the root loader: whether a booking confirmation can be mailed (BookingSuccess).
  const bookingMail =
    (useRouteLoaderData("root") as { bookingMail?: boolean } | undefined)?.bookingMail !== false;
  // A demo booked in the dialog: its date takes the focus the closed dialog hands back.
  const traceRef = useRef<HTMLDivElement>(null);
  const hadAppointment = useRef(!!submitted.appointment);
  useEffect(() => {
    if (submitted.appointment && !hadAppointment.current) reveal(traceRef.current);
    hadAppointment.current = !!submitted.appointment;
  }, [submitted.appointment]);
  return (
    <div
      role="status"
      data-reveal=""
      className="mt-6 scroll-mt-24 rounded-xl border border-green-200 bg-green-50 p-5 dark:border-green-900 dark:bg-green-950"
      data-testid="submission-success"
    >
      <h3
        ref={headingRef}
        tabIndex={-1}
        className="text-lg font-semibold text-green-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-green-600 dark:text-green-100"
      >
        {`Vielen Dank${submitted.name ? `, ${submitted.name}` : ""}! Deine Anfrage #${formatRequestId(submitted.id)} ist bei uns eingegangen.`}
      </h3>
      <p className="mt-1 text-green-900 dark:text-green-100">{message}</p>
      {submitted.check ? (
        <ScriptFreeCheck
          check={submitted.check}
          action={embedded ? EMBED_PATH : "/"}
          sent={submitted.sent ?? String(submitted.id)}
        />
      ) : null}
      {submitted.appointment ? (
        <div
          ref={traceRef}
          tabIndex={-1}
          data-reveal=""
          className="scroll-mt-24 focus:outline-none"
        >
          <AppointmentTrace requestId={submitted.id} appointment={submitted.appointment} />
          {bookingMail ? null : <NoMailNote requestId={submitted.id} />}
        </div>
      ) : null}
      {submitted.booked || !bookingEnabled ? null : embedded ? (
        submitted.bookingHref ? (
          <EmbedBookingLink href={submitted.bookingHref} />
        ) : null
      ) : (
        <BookingOffer requestId={submitted.id} requesterName={submitted.name} onBooked={onBooked} />
      )}
      <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {embedded ? null : (
          <a
            href="#history"
            className="font-medium text-green-900 underline underline-offset-2 dark:text-green-100"
          >
            Deine Anfragen ansehen
          </a>
        )}
        {onAnother ? (
          <button type="button" className={buttonClass("ghost", "sm")} onClick={onAnother}>
            Weitere Anfrage senden
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The demo offer in the frame: the booking page in the whole window, opened by the signed link. */
function EmbedBookingLink({ href }: { href: string }) {
  return (
    <DemoOfferCard hint="Such dir gleich einen Termin aus – die Terminbuchung öffnet sich im ganzen Fenster.">
      <a href={href} target="_top" className={`${buttonClass("primary", "sm")} mt-3`}>
        Demo-Termin buchen
      </a>
    </DemoOfferCard>
  );
}
