import type { ReactNode } from "react";
import { Form } from "react-router";
import {
  CalendarGrid,
  type SlotView,
  TimeGrid,
  timeButtonClass,
} from "~/components/booking/booking-panel";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import { addMonths, type CalendarCell, dayLabel } from "~/lib/booking-calendar";

/**
 * The server-rendered slot choice (no JavaScript needed): month and day are links that keep
 * their state in the URL, the times are radio buttons of one form. Used by the booking page and
 * the visitor's reschedule page.
 */
export function SlotPicker({
  month,
  cells,
  day,
  slots,
  error,
  href,
  submitLabel,
  children,
}: {
  month: string;
  cells: CalendarCell[];
  day: string | null;
  slots: SlotView[] | null;
  error: string | null;
  /** The page's URL with month (and day) set. */
  href: (params: { monat: string; tag?: string }) => string;
  submitLabel: string;
  /** Hidden fields of the form (e.g. an intent). */
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <CalendarGrid
        month={month}
        cells={cells}
        selectedDay={day}
        controls={{
          links: {
            month: (direction) => href({ monat: addMonths(month, direction) }),
            day: (tag) => href({ monat: month, tag }),
          },
        }}
      />
      <Form method="post" className="relative space-y-4">
        <Honeypot />
        {children}
        <h2 className="font-semibold">{day ? dayLabel(day) : "Uhrzeit"}</h2>
        <TimeGrid slots={slots} loading={false}>
          {slots?.map((slot) => (
            <label
              key={slot.time}
              className={`${timeButtonClass(false)} cursor-pointer text-center has-[:checked]:border-indigo-600 has-[:checked]:bg-indigo-600 has-[:checked]:text-white`}
            >
              <input type="radio" name="startTime" value={slot.time} className="sr-only" required />
              {slot.formatted}
            </label>
          ))}
        </TimeGrid>
        {error ? <Alert>{error}</Alert> : null}
        {slots?.length ? <Button type="submit">{submitLabel}</Button> : null}
      </Form>
    </div>
  );
}
