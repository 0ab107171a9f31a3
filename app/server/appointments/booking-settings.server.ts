import type { appointments } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";

// What the booking settings say, as two leaf predicates the booking, mail and visitor modules share.

/**
 * Whether visitors are offered a demo booking: off only when the event type is switched off
 * (empty appointmentEventType); a failure to read the switch counts as on (spec §4).
 */
export function bookingEnabled(): boolean {
  try {
    return Boolean(getConfiguration().appointmentEventType);
  } catch {
    return true;
  }
}

/**
 * The video link of a demo (ADR 267): the one an admin set on the appointment's card, else the
 * fixed meeting room of the settings (built-in bookings; Cal.com sends its own location).
 */
type Row = typeof appointments.$inferSelect;

export function videoLinkOf(row: Pick<Row, "provider" | "videoUrl">): string | null {
  if (row.videoUrl) return row.videoUrl;
  return row.provider === "builtin" ? getConfiguration().teamCalendar.videoUrl : null;
}
