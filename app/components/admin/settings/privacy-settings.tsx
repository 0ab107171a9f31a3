import { FieldErrors, inputClass } from "~/components/ui/field";
import {
  initialText,
  label,
  NumberSettings,
  Section,
  SettingSelect,
  type SettingsFields,
  useFieldErrors,
} from "./section";

/** Retention periods and the privacy note beside the contact form. */
export function PrivacySettings({ fields }: { fields: SettingsFields }) {
  const retention = fields.retention.getFieldset();
  const note = fields.privacyNote;
  const { errors, autoFocus } = useFieldErrors(note);
  return (
    <Section
      name="privacy"
      title="Datenschutz"
      description="Aufbewahrungsfristen (täglich angewendet) und der Hinweis beim Anfrageformular."
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <NumberSettings
          settings={[
            [retention.requestMonths, "retentionMonths", "Anfragen ohne Änderung (Monate)"],
          ]}
        />
        <SettingSelect meta={retention.requestAction} id="retentionAction" label="Danach">
          <option value="delete">Löschen</option>
          <option value="anonymize">Anonymisieren (Statistik bleibt)</option>
        </SettingSelect>
        <NumberSettings
          settings={[
            [retention.outboxDays, "outboxDays", "Gesendete E-Mails (Tage)"],
            [retention.auditDays, "auditDays", "Protokoll (Tage)"],
          ]}
        />
      </div>
      <div>
        <label htmlFor="privacyNote" className={label}>
          Datenschutzhinweis beim Formular
        </label>
        <textarea
          key={note.key}
          id="privacyNote"
          name={note.name}
          rows={3}
          maxLength={2000}
          defaultValue={initialText(note)}
          className={inputClass}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={
            errors?.length ? "privacyNote-hint privacyNote-error" : "privacyNote-hint"
          }
          autoFocus={autoFocus}
        />
        <p id="privacyNote-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {"{monate}"} wird durch die Aufbewahrungsfrist ersetzt; der Link zur Datenschutzerklärung
          (PRIVACY_URL) steht dahinter.
        </p>
        <FieldErrors id="privacyNote-error" errors={errors} />
      </div>
    </Section>
  );
}
