import { Link } from "react-router";
import { BookingDemoButton } from "~/components/booking/booking-demo-button";
import { buttonClass } from "~/components/ui/button";
import type { SettingsForm } from "./list-controls";
import { SchedulingSettings } from "./scheduling-settings";
import {
  initialText,
  NumberSettings,
  Section,
  SettingSelect,
  type SettingsFields,
} from "./section";

export type EventTypeOption = { key: string; title: string; lengthInMinutes: number };

/** Which event type visitors book after submitting, how far ahead, and the built-in week. */
export function AppointmentSettings({
  form,
  fields,
  eventTypes,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  eventTypes: EventTypeOption[];
}) {
  const lead = fields.bookingLeadTime.getFieldset();
  const title = fields.appointmentEventTypeDetails.getFieldset().title;
  return (
    <Section
      name="appointments"
      title="Terminbuchung"
      description="Welche Terminart Besucher nach dem Absenden buchen können."
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <SettingSelect
          meta={fields.appointmentEventType}
          id="appointmentEventType"
          label="Terminart"
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
            [lead.days, "leadDays", "Mindestvorlauf (Tage)"],
            [lead.hours, "leadHours", "Zusätzliche Stunden"],
          ]}
        />
      </div>
      <input type="hidden" name={title.name} value={initialText(title) ?? ""} />
      <SchedulingSettings form={form} fields={fields} />
      <div className="flex flex-wrap gap-2">
        <BookingDemoButton />
        <Link to="/admin/appointments" className={buttonClass("ghost", "sm")}>
          Zu den Terminen
        </Link>
      </div>
    </Section>
  );
}
