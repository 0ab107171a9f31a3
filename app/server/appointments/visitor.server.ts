import { and, desc, inArray, notInArray } from "drizzle-orm";
import { calendarFile, calendarFileName } from "~/lib/calendar";
import { appointments } from "~db/schema";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { visitorOwnsRequest } from "../visitors/visitor.server";
import { videoLinkOf } from "./booking-settings.server";

/** What a visitor sees of their booked demo (success card, history). */
export type VisitorAppointment = {
  start: string;
  end: string;
  title: string;
  /** The video link (the fixed room or the appointment's own), when one is set. */
  videoUrl: string | null;
};

const ENDED = ["CANCELLED", "DELETED"];

function latestRows(ids: number[]) {
  if (!ids.length) return [];
  return db()
    .select()
    .from(appointments)
    .where(and(inArray(appointments.requestId, ids), notInArray(appointments.status, ENDED)))
    .orderBy(desc(appointments.startTime))
    .all();
}

/** The booked (not cancelled) demo of each request among `ids`, the latest when several. */
export function visitorAppointments(ids: number[]): Map<number, VisitorAppointment> {
  const found = new Map<number, VisitorAppointment>();
  for (const row of latestRows(ids)) {
    if (row.requestId === null || found.has(row.requestId)) continue;
    found.set(row.requestId, {
      start: row.startTime.toISOString(),
      end: new Date(row.startTime.getTime() + row.durationMinutes * 60_000).toISOString(),
      title: row.eventTypeName,
      videoUrl: videoLinkOf(row),
    });
  }
  return found;
}

/**
 * The .ics of a request's booked demo, only for the visitor who sent the request (history
 * cookie); null otherwise, so strangers learn nothing.
 */
export async function visitorCalendarFile(
  request: Request,
  requestId: number,
): Promise<{ body: string; fileName: string } | null> {
  if (!(await visitorOwnsRequest(request, requestId))) return null;
  const row = latestRows([requestId])[0];
  if (!row) return null;
  const end = new Date(row.startTime.getTime() + row.durationMinutes * 60_000);
  const body = calendarFile({
    bookingUid: row.externalUid,
    sequence: row.sequence,
    start: row.startTime,
    end,
    summary: row.eventTypeName,
    description: "Dein persönlicher Demo-Termin: Wir zeigen dir deine Testversion.",
    location: videoLinkOf(row) ?? row.location,
    url: videoLinkOf(row) ?? row.url ?? `${env().APP_URL}/#history`,
  });
  return { body, fileName: calendarFileName(row.startTime) };
}
