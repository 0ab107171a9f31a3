import { useEffect, useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import type { AppointmentJson } from "~/lib/appointments";
import { formatDateTime } from "~/lib/format";

/** The list's query parameter naming the card whose cancellation is being asked about. */
export const CANCEL_PARAM = "absagen";

/**
 * "Verschieben" and "Absagen" on an upcoming built-in booking's card (ADR 282), without JS too:
 * moving opens its own page with the free slots (the same availability as every path);
 * cancelling asks once on the card (a link keeps the step in the URL and lands on the card) and
 * posts a real form. The visitor is mailed as after their own change.
 */
export function AppointmentChanges({ a, mailed }: { a: AppointmentJson; mailed: boolean }) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const asking = params.get(CANCEL_PARAM) === String(a.id);
  params.delete(CANCEL_PARAM);
  const list = `${pathname}${params.size ? `?${params}` : ""}`;
  const ask = new URLSearchParams(params);
  ask.set(CANCEL_PARAM, String(a.id));
  const when = `${formatDateTime(a.startTime)} Uhr`;
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (asking) question.current?.focus();
  }, [asking]);
  return (
    <>
      <Link
        to={`/admin/appointments/${a.id}/verschieben?${new URLSearchParams({ zurueck: list })}`}
        className={buttonClass("secondary", "sm")}
        aria-label={`Termin am ${when} verschieben`}
      >
        Verschieben
      </Link>
      {asking ? (
        <Form
          method="post"
          action={list}
          preventScrollReset
          className="basis-full space-y-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950"
        >
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="id" value={a.id} />
          <p ref={question} tabIndex={-1} className="font-medium focus:outline-none">
            Termin am {when} wirklich absagen?
            {a.request
              ? mailed
                ? " Der Kunde erhält die Absage per E-Mail."
                : " Eine E-Mail geht dabei nicht an den Kunden."
              : ""}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" variant="danger">
              Ja, Termin absagen
            </Button>
            <Link
              to={`${list}#termin-${a.id}`}
              preventScrollReset
              className={buttonClass("secondary", "sm")}
            >
              Nein, Termin behalten
            </Link>
          </div>
        </Form>
      ) : (
        <Link
          to={`${pathname}?${ask}#termin-${a.id}`}
          preventScrollReset
          className={`${buttonClass("ghost", "sm")} text-red-700 dark:text-red-300`}
          aria-label={`Termin am ${when} absagen`}
        >
          Absagen
        </Link>
      )}
    </>
  );
}
