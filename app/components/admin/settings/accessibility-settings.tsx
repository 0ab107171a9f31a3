import { Link } from "react-router";
import {
  ACCESSIBILITY_CORE_KEYS,
  ACCESSIBILITY_DEFAULTS,
  ACCESSIBILITY_FEEDBACK_ADMIN_PATH,
  ACCESSIBILITY_HEADINGS,
  ACCESSIBILITY_OPTIONAL_KEYS,
  ACCESSIBILITY_PATH,
  ACCESSIBILITY_SUGGESTIONS,
  type AccessibilityOptionalKey,
} from "~/lib/accessibility";
import { TextWithDefault } from "./default-text";
import type { SettingsForm } from "./list-controls";
import { isChecked, NumberSettings, Section, type SettingsFields } from "./section";

const hint = "text-xs text-slate-500 dark:text-slate-400";
const link = "font-medium text-indigo-700 underline dark:text-indigo-300";

/** What each optional text is for (the hint under it). */
const OPTIONAL_NOTES: Record<AccessibilityOptionalKey, string> = {
  limitations:
    "Was (noch) nicht barrierefrei ist und wie man es trotzdem erreicht. Leer: kein Abschnitt.",
  assessment:
    "Z. B. „Selbstbewertung durch unser Team am 01.12.2026 mit Tastatur, NVDA und axe“. Leer: kein Abschnitt.",
  contact:
    "E-Mail-Adresse oder Telefonnummer für Meldungen; das Rückmeldeformular der Seite gibt es immer. Leer: kein Abschnitt.",
  authority: "Nach § 14 BFSG anzugeben. Leer: kein Abschnitt.",
  arbitration: "Der Hinweis auf die Schlichtung nach § 34 BFSG. Leer: kein Abschnitt.",
};

/**
 * "Barrierefreiheit" (BFSG §14, Anlage 3 Nr. 1; ADR 340): whether the statement is published (the
 * page and its footer links), its three required texts (prefilled with the product's own, each
 * with "Zurücksetzen"), the optional ones (suggestions where the law names a fixed place), how long
 * feedback is kept, and the way to the feedback list.
 */
export function AccessibilitySettings({
  form,
  fields,
  feedback,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  /** Feedback entries waiting in the list (shown beside its link); absent: no link. */
  feedback?: { total: number };
}) {
  const a11y = fields.accessibility.getFieldset();
  return (
    <Section
      name="accessibility"
      title="Barrierefreiheit"
      description="Die Erklärung zur Barrierefreiheit nach § 14 BFSG: eine eigene Seite mit Rückmeldeformular, verlinkt im Footer jeder Seite für Besucher und unter dem eingebetteten Formular."
    >
      <div className="space-y-1">
        <label className="inline-flex items-center gap-2">
          <input
            key={a11y.publish.key}
            type="checkbox"
            name={a11y.publish.name}
            defaultChecked={isChecked(a11y.publish)}
            aria-describedby="accessibility-publish-hint"
          />
          Erklärung veröffentlichen
        </label>
        <p id="accessibility-publish-hint" className={hint}>
          Aus: keine Seite {ACCESSIBILITY_PATH} und keine Links dorthin.{" "}
          <a href={ACCESSIBILITY_PATH} target="_blank" rel="noreferrer" className={link}>
            Erklärung ansehen<span className="sr-only"> (öffnet in neuem Tab)</span>
          </a>
          {feedback ? (
            <>
              {" · "}
              <Link to={ACCESSIBILITY_FEEDBACK_ADMIN_PATH} className={link}>
                Rückmeldungen ansehen ({feedback.total})
              </Link>
            </>
          ) : null}
        </p>
      </div>
      <p className={hint}>
        Leerzeilen trennen Absätze, Zeilen mit „- “ am Anfang werden zu Aufzählungen.
      </p>
      {ACCESSIBILITY_CORE_KEYS.map((key) => (
        <TextWithDefault
          key={key}
          form={form}
          meta={a11y[key]}
          id={`accessibility-${key}`}
          title={ACCESSIBILITY_HEADINGS[key]}
          rows={8}
          insert={{
            value: ACCESSIBILITY_DEFAULTS[key],
            label: "Zurücksetzen",
            what: "Standardtext einsetzen",
          }}
        />
      ))}
      {ACCESSIBILITY_OPTIONAL_KEYS.map((key) => {
        const suggestion = ACCESSIBILITY_SUGGESTIONS[key];
        return (
          <TextWithDefault
            key={key}
            form={form}
            meta={a11y[key]}
            id={`accessibility-${key}`}
            title={`${ACCESSIBILITY_HEADINGS[key]} (optional)`}
            rows={3}
            note={OPTIONAL_NOTES[key]}
            insert={
              suggestion
                ? { value: suggestion, label: "Vorschlag einsetzen" }
                : { value: "", label: "Leeren" }
            }
          />
        );
      })}
      <div className="max-w-xs">
        <NumberSettings
          settings={[
            [a11y.feedbackDays, "accessibility-feedbackDays", "Rückmeldungen aufbewahren (Tage)"],
          ]}
        />
      </div>
    </Section>
  );
}
