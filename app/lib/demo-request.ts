/**
 * The built-in sample request of the booking dialog's demo mode (spec §1, §3): used instead of
 * real request data when an admin tries the dialog; nothing is booked.
 */
export const DEMO_REQUEST = {
  id: 0,
  name: "Max Mustermann (Demo)",
  email: "max.mustermann@example.com",
  phone: "+49 30 12345678",
  message:
    "Wir möchten unsere Auftragsannahme digitalisieren: Kunden sollen Aufträge online erfassen und den Bearbeitungsstand verfolgen können.",
  priority: "hoch",
  category: "Entwicklung",
  status: "offen",
  created_at: "2026-01-15T09:30:00.000Z",
  selectedTime: null as string | null,
  eventTypeKey: "demo",
};
export type DemoRequest = typeof DEMO_REQUEST;

/** The sample with the chosen time and event type filled in. */
export function demoRequest(
  selectedTime: string | null,
  eventTypeKey?: string | null,
): DemoRequest {
  return { ...DEMO_REQUEST, selectedTime, eventTypeKey: eventTypeKey || DEMO_REQUEST.eventTypeKey };
}
