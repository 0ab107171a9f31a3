import { FieldErrors } from "~/components/ui/field";
import { MAX_STAGES, STAGE_STATUS_LABELS } from "~/lib/pipeline";
import { REQUEST_STATUSES } from "~/lib/request-status";
import {
  AddButton,
  CompactTextList,
  MoveButtons,
  RemoveButton,
  type SettingsForm,
  useSettingsList,
} from "./list-controls";
import {
  initialText,
  isChecked,
  label,
  NumberSettings,
  Section,
  SettingInput,
  SettingSelect,
  type SettingsFields,
  smallLabel,
  useFieldErrors,
} from "./section";

const ADD_STAGE = "add-pipeline-stage";
const ADD_REASON = "add-lost-reason";
const REASONS_HINT = "lost-reasons-hint";

/**
 * "Pipeline und Versprechen" (ADRs 345, 346): the stages (a Conform list: name, status, whether
 * it asks for a reason; reorder, remove, add), the reasons of "Verloren" and the two promises of
 * the landing page. A stage keeps its id when renamed, so its requests stay in it; one that still
 * holds requests cannot be removed or change its status (the save says so at the list).
 */
export function PipelineSettings({ form, fields }: { form: SettingsForm; fields: SettingsFields }) {
  const pipeline = fields.pipeline.getFieldset();
  const stageList = pipeline.stages;
  const stages = useSettingsList(form, stageList, ADD_STAGE, "stage");
  const reasons = useSettingsList(form, pipeline.lostReasons, ADD_REASON, "reason");
  const promises = pipeline.promises.getFieldset();
  const listErrors = useFieldErrors(stageList).errors;
  return (
    <Section
      name="pipeline"
      title="Pipeline und Versprechen"
      description="Die Phasen des Boards, die Gründe für „Verloren“ und was die Startseite verspricht."
    >
      <div>
        <h3 className={label} id="pipeline-stages-label">
          Phasen
        </h3>
        <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
          Jede Phase gehört zu einem Status (Neu, In Bearbeitung, Erledigt); jeder Status braucht
          mindestens eine Phase, höchstens {MAX_STAGES} Phasen. Umbenennen behält die Anfragen in
          der Phase. Eine Buchung schiebt nach „Demo gebucht“, eine gelieferte Testversion nach
          „Testversion geliefert“ – nur vorwärts, nie aus „Erledigt“ heraus.
        </p>
        <ul className="space-y-2" aria-labelledby="pipeline-stages-label">
          {stages.rows.map((row, index) => {
            const stage = row.getFieldset();
            const name = initialText(stage.name) || "Neue Phase";
            const statusErrors = stage.status.errors;
            return (
              <li
                key={stages.keys[index]}
                className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_11rem_auto_auto] sm:items-end dark:border-slate-700"
                data-stage-row={index}
              >
                <input type="hidden" name={stage.id.name} value={initialText(stage.id) ?? ""} />
                <SettingInput
                  meta={stage.name}
                  label="Name"
                  labelClassName={smallLabel}
                  maxLength={40}
                  autoFocus={stages.focusIndex === index && stages.intent?.type === "insert"}
                />
                <div>
                  <SettingSelect meta={stage.status} label="Status" labelClassName={smallLabel}>
                    {REQUEST_STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {STAGE_STATUS_LABELS[s]}
                      </option>
                    ))}
                  </SettingSelect>
                  <FieldErrors errors={statusErrors} />
                </div>
                <label className="inline-flex items-center gap-2 text-sm sm:pb-2">
                  <input
                    key={stage.askReason.key}
                    type="checkbox"
                    name={stage.askReason.name}
                    defaultChecked={isChecked(stage.askReason)}
                  />
                  fragt nach Grund
                </label>
                <div className="flex items-center gap-1">
                  <MoveButtons
                    list={stages}
                    index={index}
                    label={`Phase ${name}`}
                    idPrefix="pipeline-stage"
                  />
                  <RemoveButton
                    list={stages}
                    index={index}
                    label={`Phase ${name} entfernen`}
                    variant="danger"
                  />
                </div>
              </li>
            );
          })}
        </ul>
        <div className="mt-2">
          <AddButton
            list={stages}
            defaultValue={{ id: "", name: "", status: "In Progress" }}
            focus={`[name^="${stageList.name}["][name$="].name"]`}
          >
            Phase hinzufügen
          </AddButton>
        </div>
        <FieldErrors id={`${stageList.id}-error`} errors={listErrors} />
      </div>
      <div>
        <h3 className={label} id="lost-reasons-label">
          Gründe für „Verloren“
        </h3>
        <p id={REASONS_HINT} className="mb-2 text-xs text-slate-600 dark:text-slate-400">
          Eine Phase, die nach dem Grund fragt, bietet diese Gründe zur Auswahl an.
        </p>
        <CompactTextList
          list={reasons}
          labelledBy="lost-reasons-label"
          label="Grund"
          emptyName="Leeren Grund"
          hint={REASONS_HINT}
          placeholder="z. B. Kein Budget"
        />
        <AddButton list={reasons} defaultValue="" focus={`[name^="${pipeline.lostReasons.name}["]`}>
          Grund hinzufügen
        </AddButton>
        <FieldErrors errors={pipeline.lostReasons.errors} />
      </div>
      <div>
        <h3 className={label}>Versprechen</h3>
        <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
          Jede Anfrage bekommt daraus zwei Fälligkeiten; die Texte der Startseite und der
          Eingangsbestätigung folgen diesen Zahlen (eigene Texte unter „Erscheinungsbild und
          Inhalte“ passen Sie selbst an). Werktage: Montag bis Freitag ohne bundesweite Feiertage,
          ohne die Feiertage des Bundeslands und die gesperrten Tage aus „Terminbuchung“.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberSettings
            settings={[
              [
                promises.contactDays,
                "pipelineContactDays",
                "Erstkontakt innerhalb von … Werktagen",
              ],
              [promises.trialDays, "pipelineTrialDays", "Testversion innerhalb von … Tagen"],
            ]}
          />
        </div>
        <label className="mt-2 inline-flex items-center gap-2 text-sm">
          <input
            key={promises.trialWorkingDays.key}
            type="checkbox"
            name={promises.trialWorkingDays.name}
            defaultChecked={isChecked(promises.trialWorkingDays)}
          />
          Testversion in Werktagen zählen (die Startseite sagt dann „Werktagen“)
        </label>
      </div>
    </Section>
  );
}
