import { lazy, Suspense, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { DEMO_REQUEST } from "~/lib/demo-request";

const BookingDialog = lazy(() =>
  import("./booking-dialog").then((m) => ({ default: m.BookingDialog })),
);

/** Settings page: opens the booking dialog in demo mode (sample request, nothing is booked). */
export function BookingDemoButton() {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  if (!hydrated) {
    return (
      <a href="/termin?demo=1" className={buttonClass("secondary", "sm")}>
        Buchungsdialog testen (Demo)
      </a>
    );
  }
  return (
    <>
      <button
        type="button"
        className={buttonClass("secondary", "sm")}
        onClick={() => setOpen(true)}
      >
        Buchungsdialog testen (Demo)
      </button>
      {open ? (
        <Suspense fallback={null}>
          <BookingDialog
            demo
            requestId={0}
            requesterName={DEMO_REQUEST.name}
            open={open}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
