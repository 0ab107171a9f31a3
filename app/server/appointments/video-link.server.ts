import { and, eq, sql } from "drizzle-orm";
import type { AppointmentJson } from "~/lib/appointments";
import { OptionalVideoUrlSchema } from "~/lib/team-calendar";
import { appointments } from "~db/schema";
import { queueDemoEvents } from "../caldav/events.server";
import { db } from "../platform/db.server";
import { getAppointment } from "./appointments.server";
import { appointmentWithRequest } from "./changes.server";
import { dropReminder, queueConfirmation, queueReminder } from "./mails.server";
import { SchedulingError } from "./scheduling/types";

export const VIDEO_LINK_CALCOM =
  "Bei Cal.com-Terminen legt Cal.com den Ort des Termins fest. Bitte ändern Sie ihn dort.";
export const VIDEO_LINK_INACTIVE =
  "Der Termin ist abgesagt oder vorbei – der Videolink kann nicht mehr geändert werden.";

/**
 * Sets (or with an empty value removes) a booking's own video link. A change raises the booking's
 * SEQUENCE and mails the visitor the updated invite (LOCATION/URL) with the new manage link, and
 * the reminder is queued again with the link — not while the request is quarantined (issue 26:
 * nothing goes to a held request's typed address; releasing it sends the current invite).
 * Unchanged input changes nothing. `mailed`: whether the visitor gets the update.
 */
export async function setVideoLink(
  id: number,
  input: unknown,
): Promise<{ appointment: AppointmentJson; changed: boolean; mailed: boolean }> {
  const parsed = OptionalVideoUrlSchema.safeParse(input);
  if (!parsed.success)
    throw new SchedulingError(
      parsed.error.issues[0]?.message ?? "Ungültiger Link.",
      "invalid",
      400,
    );
  const videoUrl = parsed.data;
  const { row, request } = appointmentWithRequest(id);
  if (row.provider !== "builtin") throw new SchedulingError(VIDEO_LINK_CALCOM, "invalid", 400);
  if ((row.videoUrl ?? null) === videoUrl)
    return { appointment: getAppointment(id) as AppointmentJson, changed: false, mailed: false };
  if (
    ["CANCELLED", "DELETED", "REJECTED"].includes(row.status) ||
    row.startTime.getTime() <= Date.now()
  )
    throw new SchedulingError(VIDEO_LINK_INACTIVE, "invalid", 409);
  const updated = db()
    .update(appointments)
    .set({ videoUrl, sequence: sql`${appointments.sequence} + 1`, cachedAt: new Date() })
    .where(and(eq(appointments.id, id), eq(appointments.sequence, row.sequence)))
    .returning()
    .get();
  if (!updated)
    throw new SchedulingError(
      "Der Termin wurde gerade geändert. Bitte laden Sie die Seite neu.",
      "invalid",
      409,
    );
  // The demo event in the team's calendars gets the new LOCATION/URL (ADR 336).
  queueDemoEvents(id);
  const mailed = Boolean(request && !request.quarantinedAt);
  if (request && mailed) {
    const who = { id: request.id, name: request.name, email: request.email };
    dropReminder(id);
    queueConfirmation(updated, who, "video");
    queueReminder(updated, who);
  }
  return { appointment: getAppointment(id) as AppointmentJson, changed: true, mailed };
}
