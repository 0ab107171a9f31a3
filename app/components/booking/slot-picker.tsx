import { type ReactNode, useEffect, useRef } from "react";
import { Form, useLocation } from "react-router";
import {
  CalendarGrid,
  type SlotView,
  TimeGrid,
  timeButtonClass,
} from "~/components/booking/booking-panel";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import {
  addMonths,
  type CalendarCell,
  dayLabel,
  type IsoDay,
  monthOf,
} from "~/lib/booking-calendar";

/** The times' heading: a day's link jumps to it (`#zeiten`), so a phone lands on the times. */
export const TIMES_ID = "zeiten";

/**
 * The server-rendered slot choice (no JavaScript needed): month and day are links that keep
 * their state in the URL, the times are radio buttons of one form. Used by the booking page and
 * the visitor's reschedule page. A day's link ends in `#zeiten`: without JS the reloaded page
 * opens at the times (the heading is the target, so Tab goes on to the first time); with JS the
 * heading takes the focus.
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
  hint,
  nextFree,
}: {
  /** The hint under the calendar (the configured weekdays). */
  hint?: string;
  /** Where a month without a selectable day points (CalendarGrid). */
  nextFree?: IsoDay | null;
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
  const heading = useRef<HTMLHeadingElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (day && hash === `#${TIMES_ID}`) heading.current?.focus();
  }, [day, hash]);
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <CalendarGrid
        month={month}
        cells={cells}
        selectedDay={day}
        hint={hint}
        nextFree={nextFree}
        headingLevel={2}
        controls={{
          links: {
            month: (direction) => href({ monat: addMonths(month, direction) }),
            day: (tag) => `${href({ monat: monthOf(tag), tag })}#${TIMES_ID}`,
          },
        }}
      />
      <Form method="post" className="relative space-y-4">
        <Honeypot />
        {children}
        {/* Below the sticky site header when jumped to (scroll margin). */}
        <h2
          id={TIMES_ID}
          ref={heading}
          tabIndex={-1}
          className="scroll-mt-20 rounded font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {day ? dayLabel(day) : "Uhrzeit"}
        </h2>
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
