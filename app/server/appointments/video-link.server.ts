import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppointmentJson } from "~/lib/appointments";
import { OptionalVideoUrlSchema } from "~/lib/team-calendar";
import { appointments } from "~db/schema";
import { queueDemoEvents } from "../caldav/events.server";
import { db } from "../platform/db.server";
import { failure, invalid, type Result } from "../platform/result.server";
import { getAppointment } from "./appointments.server";
import { appointmentWithRequest } from "./changes.server";
import { dropReminder, queueConfirmation, queueReminder } from "./mails.server";

export const VIDEO_LINK_CALCOM =
  "Bei Cal.com-Terminen legt Cal.com den Ort des Termins fest. Bitte ändern Sie ihn dort.";
export const VIDEO_LINK_INACTIVE =
  "Der Termin ist abgesagt oder vorbei – der Videolink kann nicht mehr geändert werden.";

/** The input of both faces (the card's form field and the PATCH body): https, or empty for none. */
export const VideoLinkSchema = z.object({ videoUrl: OptionalVideoUrlSchema });

export type VideoLinkChange = { appointment: AppointmentJson; changed: boolean; mailed: boolean };

/**
 * Sets (or with an empty value removes) a booking's own video link. A change raises the booking's
 * SEQUENCE and mails the visitor the updated invite (LOCATION/URL) with the new manage link, and
 * the reminder is queued again with the link — not while the request is quarantined (ADR 252:
 * nothing goes to a held request's typed address; releasing it sends the current invite).
 * Unchanged input changes nothing. `mailed`: whether the visitor gets the update. The link is
 * checked here, for the page and the API alike (a refused one fails at the field `videoUrl`).
 */
export async function setVideoLink(id: number, input: unknown): Promise<Result<VideoLinkChange>> {
  const parsed = VideoLinkSchema.safeParse({ videoUrl: input });
  if (!parsed.success) return invalid(parsed.error);
  const { videoUrl } = parsed.data;
  const found = appointmentWithRequest(id);
  if (!found.ok) return found;
  const { row, request } = found;
  if (row.provider !== "builtin") return failure(400, VIDEO_LINK_CALCOM);
  if ((row.videoUrl ?? null) === videoUrl)
    return { ok: true, appointment: current(id), changed: false, mailed: false };
  if (
    ["CANCELLED", "DELETED", "REJECTED"].includes(row.status) ||
    row.startTime.getTime() <= Date.now()
  )
    return failure(409, VIDEO_LINK_INACTIVE);
  const updated = db()
    .update(appointments)
    .set({ videoUrl, sequence: sql`${appointments.sequence} + 1`, cachedAt: new Date() })
    .where(and(eq(appointments.id, id), eq(appointments.sequence, row.sequence)))
    .returning()
    .get();
  if (!updated)
    return failure(409, "Der Termin wurde gerade geändert. Bitte laden Sie die Seite neu.");
  // The demo event in the team's calendars gets the new LOCATION/URL (ADR 336).
  queueDemoEvents(id);
  const mailed = Boolean(request && !request.quarantinedAt);
  if (request && mailed) {
    const who = { id: request.id, name: request.name, email: request.email };
    dropReminder(id);
    queueConfirmation(updated, who, "video");
    queueReminder(updated, who);
  }
  return { ok: true, appointment: current(id), changed: true, mailed };
}

const current = (id: number) => getAppointment(id) as AppointmentJson;
