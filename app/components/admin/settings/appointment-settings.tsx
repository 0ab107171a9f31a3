import { Link } from "react-router";
import { BookingDemoButton } from "~/components/booking/booking-demo-button";
import { buttonClass } from "~/components/ui/button";
import type { Configuration } from "~/lib/configuration";
import { NumberSettings, Section, SettingSelect } from "./section";

export type EventTypeOption = { key: string; title: string; lengthInMinutes: number };

/** Which event type visitors book after submitting, and how far ahead. */
export function AppointmentSettings({
  config,
  eventTypes,
}: {
  config: Configuration;
  eventTypes: EventTypeOption[];
}) {
  return (
    <Section
      name="appointments"
      title="Terminbuchung"
      description="Welche Terminart Besucher nach dem Absenden buchen können."
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <SettingSelect
          id="appointmentEventType"
          label="Terminart"
          defaultValue={config.appointmentEventType ?? ""}
        >
          <option value="">Keine (Buchung deaktiviert)</option>
          {eventTypes.map((e) => (
            <option key={e.key} value={e.key}>
              {e.title} ({e.lengthInMinutes} Min)
            </option>
          ))}
        </SettingSelect>
        <NumberSettings
          settings={[
            ["leadDays", "Mindestvorlauf (Tage)", config.bookingLeadTime.days],
            ["leadHours", "Zusätzliche Stunden", config.bookingLeadTime.hours],
          ]}
        />
      </div>
      <input type="hidden" name="eventTypeTitle" value={config.appointmentEventTypeDetails.title} />
      <div className="flex flex-wrap gap-2">
        <BookingDemoButton />
        <Link to="/admin/appointments" className={buttonClass("ghost", "sm")}>
          Zu den Terminen
        </Link>
      </div>
    </Section>
  );
}
