import ical, { ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";

/**
 * The one calendar module (.ics) of the portal: visitors' "Zum Kalender hinzufügen" and, later,
 * the lead workflow use it. A booking keeps one UID for its whole life; SEQUENCE counts its
 * revisions, so a calendar updates the entry instead of adding a second one.
 */
export type CalendarEntry = {
  /** Stable id of the booking (e.g. the scheduling service's uid). */
  bookingUid: string;
  /** Revision of the entry (0 on booking; raise it on every change, e.g. reschedule or cancel). */
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  description?: string;
  location?: string | null;
  url?: string | null;
  cancelled?: boolean;
  /** Who invites (the mail sender); invites by mail need one. */
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
  /** iTIP method of a mailed invite: REQUEST (new or changed) or CANCEL; none for a download. */
  method?: CalendarMethod;
  /** DTSTAMP (default: the start, so a download stays byte-identical). */
  stamp?: Date;
};

export type CalendarMethod = "REQUEST" | "CANCEL";

/** Domain part of the UID, so UIDs stay unique across installations. */
export const CALENDAR_UID_DOMAIN = "anfrage-portal";

export const calendarUid = (bookingUid: string) => `${bookingUid}@${CALENDAR_UID_DOMAIN}`;

/** The .ics text of one entry (UTC times, German product id). */
export function calendarFile(entry: CalendarEntry): string {
  const calendar = ical({
    prodId: { company: "Anfrage-Portal", product: "Termine", language: "DE" },
    ...(entry.method
      ? {
          method:
            entry.method === "CANCEL" ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
        }
      : {}),
  });
  calendar.createEvent({
    id: calendarUid(entry.bookingUid),
    sequence: entry.sequence,
    start: entry.start,
    end: entry.end,
    stamp: entry.stamp ?? entry.start,
    organizer: entry.organizer,
    // The visitor booked it: already accepted, no answer expected.
    attendees: entry.attendee
      ? [{ ...entry.attendee, rsvp: false, status: ICalAttendeeStatus.ACCEPTED }]
      : [],
    summary: entry.summary,
    description: entry.description,
    location: entry.location ?? undefined,
    url: entry.url ?? undefined,
    status: entry.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/** A download file name like "demo-termin-2026-12-01.ics". */
export function calendarFileName(start: Date): string {
  return `demo-termin-${start.toISOString().slice(0, 10)}.ics`;
}

/** "Anfrage-Portal <no-reply@example.com>" → name and address (the organiser of an invite). */
export function parseMailbox(from: string): { name: string; email: string } {
  const match = from.match(/^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/);
  if (match) return { name: match[1]?.trim() || (match[2] as string), email: match[2] as string };
  return { name: from.trim(), email: from.trim() };
}

/** One entry of a subscribed calendar feed: a time, a title and a link, nothing else. */
export type FeedEntry = {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  url: string;
};

/** A calendar feed to subscribe to (the team's booked demos, ADR 267): no method, no attendees. */
export function calendarFeed(name: string, entries: FeedEntry[], stamp = new Date()): string {
  const calendar = ical({
    prodId: { company: "Anfrage-Portal", product: "Demo-Termine", language: "DE" },
    name,
    ttl: 15 * 60,
  });
  for (const entry of entries) {
    calendar.createEvent({
      id: calendarUid(entry.uid),
      sequence: entry.sequence,
      start: entry.start,
      end: entry.end,
      stamp,
      summary: entry.summary,
      description: entry.url,
      url: entry.url,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
