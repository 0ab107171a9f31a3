import { Form, Link, useLocation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import type { AppointmentJson } from "~/lib/appointments";
import { formatDateTime } from "~/lib/format";

/**
 * "Verschieben" and "Absagen" on an upcoming built-in booking's card (issue 28), without JS too:
 * moving opens its own page with the free slots (the same availability as every path), cancelling
 * asks once in a disclosure and posts a real form. The visitor is mailed as after their own change.
 */
export function AppointmentChanges({ a }: { a: AppointmentJson }) {
  const { pathname, search } = useLocation();
  const back = `${pathname}${search}`;
  const when = `${formatDateTime(a.startTime)} Uhr`;
  return (
    <>
      <Link
        to={`/admin/appointments/${a.id}/verschieben?${new URLSearchParams({ zurueck: back })}`}
        className={buttonClass("secondary", "sm")}
        aria-label={`Termin am ${when} verschieben`}
      >
        Verschieben
      </Link>
      <details className="group basis-full sm:basis-auto">
        <summary
          className={`${buttonClass("ghost", "sm")} cursor-pointer list-none text-red-700 dark:text-red-300 [&::-webkit-details-marker]:hidden`}
          aria-label={`Termin am ${when} absagen`}
        >
          Absagen
        </summary>
        <Form
          method="post"
          preventScrollReset
          className="mt-2 space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950"
        >
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="id" value={a.id} />
          <p>
            Termin am {when} wirklich absagen?
            {a.request ? " Der Kunde erhält die Absage per E-Mail." : ""}
          </p>
          <Button type="submit" size="sm" variant="danger">
            Ja, Termin absagen
          </Button>
        </Form>
      </details>
    </>
  );
}
