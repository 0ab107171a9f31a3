/**
 * What an appointment row keeps of the scheduling service's booking or webhook payload
 * (`appointments.raw_data`). Cal.com sends attendees (name, e-mail, time zone), booking-form
 * responses, the organizer and free-text notes, and its booking `title` names the attendee
 * ("Demo between Olga and Paula"); none of that may be stored. Only these
 * non-personal keys survive, and only as plain strings or numbers (a nested object, such as a
 * location given as `{ type, value: "+49…" }`, is dropped).
 */
const KEPT = [
  "provider",
  "uid",
  "id",
  "status",
  "start",
  "end",
  "startTime",
  "endTime",
  "length",
  "duration",
  "eventTitle",
  "type",
  "eventTypeId",
  "eventTypeSlug",
  "rescheduleUid",
  "rescheduled",
] as const;

export type ProviderData = Partial<Record<(typeof KEPT)[number] | "requestId", string | number>>;

const plain = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

export function providerData(raw: unknown): ProviderData | null {
  if (!raw || typeof raw !== "object") return null;
  const source = raw as Record<string, unknown>;
  const kept: ProviderData = {};
  for (const key of KEPT) {
    const value = source[key];
    if (plain(value)) kept[key] = typeof value === "boolean" ? String(value) : value;
  }
  const requestId = (source.metadata as Record<string, unknown> | undefined)?.requestId;
  if (typeof requestId === "string" || typeof requestId === "number") kept.requestId = requestId;
  return Object.keys(kept).length ? kept : null;
}

/** The part of a Cal.com webhook body the appointment cache reads. */
export type WebhookPayload = {
  triggerEvent?: string;
  payload?: {
    uid?: string;
    startTime?: string;
    endTime?: string;
    status?: string;
    /** The event type's title; `title` is the booking's and names the attendee: never read. */
    eventTitle?: string;
    type?: string;
    location?: string;
    length?: number;
    metadata?: { requestId?: string | number };
    rescheduleUid?: string;
  };
};
