import {
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { buttonClass } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { BookedAppointment } from "./appointment-trace";

type BookingDialogProps = {
  requestId: number;
  requesterName: string;
  open: boolean;
  onClose: () => void;
  onBooked?: (booked: BookedAppointment) => void;
};

// The booking dialog (another issue) is code-split: loaded only when the visitor opens it. The glob
// keeps this module building while that file does not exist yet (then the link below is used).
const dialogModules = import.meta.glob<{ BookingDialog: ComponentType<BookingDialogProps> }>(
  "../booking/booking-dialog.tsx",
);
const loadDialog = Object.values(dialogModules)[0];
const BookingDialog = loadDialog
  ? lazy(() => loadDialog().then((module) => ({ default: module.BookingDialog })))
  : null;

/**
 * After a successful submission: the demo-booking offer. With JS a button opening the booking
 * dialog; without JS a link to the server-rendered booking page. Hidden once a demo is booked.
 */
export function BookingOffer({
  requestId,
  requesterName,
  onBooked,
}: {
  requestId: number;
  requesterName: string;
  onBooked?: (booked: BookedAppointment) => void;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const withDialog = hydrated && BookingDialog;
  // The link focused before hydration hands its focus to the button that replaces it.
  const linkRef = useRef<HTMLAnchorElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const linkHadFocus = useRef(false);
  useLayoutEffect(() => {
    if (linkRef.current && document.activeElement === linkRef.current) linkHadFocus.current = true;
  }, []);
  useLayoutEffect(() => {
    if (withDialog && linkHadFocus.current) {
      linkHadFocus.current = false;
      buttonRef.current?.focus();
    }
  }, [withDialog]);
  return (
    <DemoOfferCard hint="Such dir gleich einen Termin aus – wir zeigen dir dort deine Testversion.">
      {withDialog ? (
        <button
          ref={buttonRef}
          type="button"
          className={`${buttonClass("primary", "sm")} mt-3`}
          onClick={() => setOpen(true)}
        >
          Demo-Termin buchen
        </button>
      ) : (
        <a
          ref={linkRef}
          href={`/termin?anfrage=${requestId}`}
          className={`${buttonClass("primary", "sm")} mt-3`}
        >
          Demo-Termin buchen
        </a>
      )}
      {withDialog && open ? (
        <Suspense fallback={<p className="mt-2 text-sm">Terminbuchung wird geladen …</p>}>
          <BookingDialog
            requestId={requestId}
            requesterName={requesterName}
            open={open}
            onClose={() => setOpen(false)}
            onBooked={(booked) => {
              setOpen(false);
              onBooked?.(booked);
            }}
          />
        </Suspense>
      ) : null}
    </DemoOfferCard>
  );
}

/** The demo offer's card: its question, a line on what booking does, then the way to book. */
export function DemoOfferCard({ hint, children }: { hint: string; children: ReactNode }) {
  return (
    <div className="mt-4 rounded-lg border border-indigo-200 bg-white p-4 dark:border-indigo-900 dark:bg-slate-900">
      <p className="font-semibold text-slate-900 dark:text-white">
        Lust auf eine persönliche Demo?
      </p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{hint}</p>
      {children}
    </div>
  );
}
