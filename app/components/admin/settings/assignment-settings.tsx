import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { initialList, isChecked, Section, type SettingsFields } from "./section";

/**
 * "Faire Verteilung" (ADR 353): off by default; when on, each new (or released) request goes to
 * the next admin of the chosen ones in turn — inactive admins and those absent (their own
 * Account-Einstellungen) are skipped. A booked demo adds its host beside them.
 */
export function AssignmentSettings({
  fields,
  admins,
}: {
  fields: SettingsFields;
  admins: { id: number; username: string; email: string }[];
}) {
  const assignment = fields.assignment.getFieldset();
  const chosen = initialList(assignment.adminIds);
  return (
    <Section
      name="assignment"
      title="Faire Verteilung neuer Anfragen"
      description="Neue Anfragen reihum einem der ausgewählten Admins zuweisen (in der Reihenfolge der Liste). Deaktivierte und abwesende Admins werden übersprungen."
    >
      <label className="inline-flex items-center gap-2">
        <input
          key={assignment.roundRobin.key}
          type="checkbox"
          name={assignment.roundRobin.name}
          defaultChecked={isChecked(assignment.roundRobin)}
        />
        Neue Anfragen reihum zuweisen
      </label>
      <CheckboxGroup
        legend="Wer bekommt neue Anfragen?"
        name={assignment.adminIds.name}
        layout="grid"
        options={admins.map((a) => ({
          value: a.id,
          label: a.username,
          checked: chosen.includes(String(a.id)),
        }))}
      />
    </Section>
  );
}
