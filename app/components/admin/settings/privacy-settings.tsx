import { FieldErrors, inputClass } from "~/components/ui/field";
import type { Configuration } from "~/lib/configuration";
import { label, NumberSettings, Section, SettingSelect } from "./section";

/** Retention periods and the privacy note beside the contact form. */
export function PrivacySettings({
  config,
  fieldErrors,
}: {
  config: Configuration;
  fieldErrors?: Record<string, string[]>;
}) {
  const { retention } = config;
  return (
    <Section
      name="privacy"
      title="Datenschutz"
      description="Aufbewahrungsfristen (täglich angewendet) und der Hinweis beim Anfrageformular."
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <NumberSettings
          settings={[
            ["retentionMonths", "Anfragen ohne Änderung (Monate)", retention.requestMonths],
          ]}
        />
        <SettingSelect id="retentionAction" label="Danach" defaultValue={retention.requestAction}>
          <option value="delete">Löschen</option>
          <option value="anonymize">Anonymisieren (Statistik bleibt)</option>
        </SettingSelect>
        <NumberSettings
          settings={[
            ["outboxDays", "Gesendete E-Mails (Tage)", retention.outboxDays],
            ["auditDays", "Protokoll (Tage)", retention.auditDays],
          ]}
        />
      </div>
      <div>
        <label htmlFor="privacyNote" className={label}>
          Datenschutzhinweis beim Formular
        </label>
        <textarea
          id="privacyNote"
          name="privacyNote"
          rows={3}
          maxLength={2000}
          defaultValue={config.privacyNote}
          className={inputClass}
          aria-describedby="privacyNote-hint"
        />
        <p id="privacyNote-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {"{monate}"} wird durch die Aufbewahrungsfrist ersetzt; der Link zur Datenschutzerklärung
          (PRIVACY_URL) steht dahinter.
        </p>
        <FieldErrors errors={fieldErrors?.privacyNote} />
      </div>
    </Section>
  );
}
