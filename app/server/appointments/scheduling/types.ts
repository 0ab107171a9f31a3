import type { IsoDay } from "~/lib/booking-calendar";

export type EventType = {
  /** The key the configuration stores (slug, or the id when there is no slug). */
  key: string;
  id: number | null;
  slug: string;
  title: string;
  lengthInMinutes: number;
  /** May contain HTML (sanitised before rendering). */
  description: string;
  hidden: boolean;
};

export type Slot = { time: string; formatted: string; available: true };

export type BookingRequest = {
  requestId: number | null;
  start: string;
  eventType: EventType;
  attendee: { name: string; email: string; phone?: string; timeZone: string };
};

export type BookingResult = {
  uid: string;
  start: string;
  end: string;
  status: string;
  location: string | null;
  url: string | null;
  raw: unknown;
};

export type SchedulingProvider = {
  name: "builtin" | "calcom";
  listEventTypes(): Promise<EventType[]>;
  /** `excludeId`: a built-in booking being moved (it does not block the slots around it). */
  getSlots(
    day: IsoDay,
    eventType: EventType,
    minNoticeHours: number,
    excludeId?: number,
  ): Promise<Slot[]>;
  book(input: BookingRequest): Promise<BookingResult>;
  getBooking(uid: string): Promise<BookingResult | null>;
  cancel(uid: string): Promise<void>;
};

export type SchedulingErrorCode =
  | "slot_taken"
  | "invalid"
  | "not_found"
  | "unavailable"
  | "bad_response";

/** A scheduling failure worded in German for visitors and admins. */
export class SchedulingError extends Error {
  override name = "SchedulingError";
  constructor(
    message: string,
    readonly code: SchedulingErrorCode,
    readonly status: number,
  ) {
    super(message);
  }
}

export const SLOT_TAKEN =
  "Dieser Termin wurde gerade vergeben. Bitte wähle eine andere Uhrzeit – die freien Zeiten wurden aktualisiert.";
export const SLOTS_FAILED =
  "Zeitslots konnten nicht geladen werden. Bitte versuche es später erneut.";
export const BOOKING_FAILED = "Fehler beim Buchen des Termins";
export const CANCEL_FAILED = "Der Termin konnte nicht abgesagt werden.";
