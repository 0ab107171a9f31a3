import { FieldErrors } from "~/components/ui/field";
import { GERMAN_STATE_CODES, GERMAN_STATES } from "~/lib/holidays-states";
import { WEEKDAY_NAMES } from "~/lib/scheduling-form";
import { AddButton, RemoveButton, type SettingsForm, useSettingsList } from "./list-controls";
import {
  isChecked,
  NumberSettings,
  SettingInput,
  SettingSelect,
  type SettingsField,
  type SettingsFields,
  smallLabel,
} from "./section";

type Props = { form: SettingsForm; fields: SettingsFields };
type SchedulingFields = ReturnType<SettingsFields["scheduling"]["getFieldset"]>;
type HoursList = ReturnType<SchedulingFields["weeklyHours"]["getFieldset"]>["mon"];
type BlockedList = SchedulingFields["blockedDays"];

/**
 * The built-in scheduler's week inside the card "Terminbuchung" (ADR 264): working hours per
 * weekday (several intervals, e.g. a lunch break), step, buffers, daily maximum, horizon, public
 * holidays (nationwide, plus a state's), 24.12./31.12. and further blocked days. Conform lists.
 */
export function SchedulingSettings({ form, fields }: Props) {
  const scheduling = fields.scheduling.getFieldset();
  const hours = scheduling.weeklyHours.getFieldset();
  return (
    <div id="scheduling" className="scroll-mt-24 space-y-5">
      <fieldset className="space-y-3">
        <legend className="font-semibold">Arbeitszeiten (Berliner Zeit)</legend>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Termine werden nur in diesen Zeiträumen angeboten. Ein Tag ohne Zeitraum ist frei; zwei
          Zeiträume ergeben eine Pause (z. B. 09:00–12:00 und 13:00–17:00).
        </p>
        {WEEKDAY_NAMES.map(([key, name]) => (
          <DayHours key={key} form={form} list={hours[key]} day={key} name={name} />
        ))}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <NumberSettings
          settings={[
            [scheduling.slotStepMinutes, "slotStep", "Raster in Minuten (0 = Termindauer)"],
            [scheduling.bufferBeforeMinutes, "bufferBefore", "Puffer vor dem Termin (Minuten)"],
            [scheduling.bufferAfterMinutes, "bufferAfter", "Puffer nach dem Termin (Minuten)"],
            [scheduling.maxPerDay, "maxPerDay", "Höchstens Termine pro Tag (0 = unbegrenzt)"],
            [
              scheduling.horizonDays,
              "horizonDays",
              "Buchbar für die nächsten Tage (0 = unbegrenzt)",
            ],
          ]}
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="font-semibold">Feiertage</legend>
        <Checkbox meta={scheduling.publicHolidays}>
          Bundesweite gesetzliche Feiertage sperren
        </Checkbox>
        <div className="max-w-xs">
          <SettingSelect
            meta={scheduling.holidayState}
            id="holidayState"
            label="Bundesland (zusätzliche Feiertage)"
          >
            <option value="">Keins (nur bundesweite Feiertage)</option>
            {GERMAN_STATE_CODES.map((code) => (
              <option key={code} value={code}>
                {GERMAN_STATES[code]}
              </option>
            ))}
          </SettingSelect>
        </div>
        <Checkbox meta={scheduling.blockChristmasEve}>Heiligabend (24.12.) sperren</Checkbox>
        <Checkbox meta={scheduling.blockNewYearsEve}>Silvester (31.12.) sperren</Checkbox>
      </fieldset>
      <BlockedDays form={form} list={scheduling.blockedDays} />
    </div>
  );
}

function Checkbox({ meta, children }: { meta: SettingsField; children: string }) {
  return (
    <label className="flex items-center gap-2">
      <input key={meta.key} type="checkbox" name={meta.name} defaultChecked={isChecked(meta)} />
      {children}
    </label>
  );
}

function DayHours({
  form,
  list,
  day,
  name,
}: {
  form: SettingsForm;
  list: HoursList;
  day: string;
  name: string;
}) {
  const settingsList = useSettingsList(form, list, `hours-${day}-add`);
  const { rows, keys, focusIndex } = settingsList;
  return (
    <div className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[7rem_1fr] dark:border-slate-700">
      <p className="font-medium" id={`hours-${day}`}>
        {name}
      </p>
      <div className="space-y-2">
        {rows.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">Keine Termine</p>
        ) : null}
        <ul className="space-y-2">
          {rows.map((row, index) => {
            const interval = row.getFieldset();
            return (
              <li key={keys[index]} className="flex flex-wrap items-end gap-2">
                <SettingInput
                  meta={interval.from}
                  id={`hours-${day}-${index}-from`}
                  label={`${name} ${index + 1}: von`}
                  labelClassName={smallLabel}
                  type="time"
                  required
                  autoFocus={focusIndex === index}
                />
                <SettingInput
                  meta={interval.to}
                  id={`hours-${day}-${index}-to`}
                  label={`${name} ${index + 1}: bis`}
                  labelClassName={smallLabel}
                  type="time"
                  required
                />
                <RemoveButton
                  list={settingsList}
                  index={index}
                  label={`${name}: Zeitraum ${index + 1} entfernen`}
                />
              </li>
            );
          })}
        </ul>
        <AddButton
          list={settingsList}
          label={`${name}: Zeitraum hinzufügen`}
          defaultValue={{
            from: rows.length ? "13:00" : "09:00",
            to: rows.length ? "17:00" : "12:00",
          }}
          focus={`[id^="hours-${day}-"][id$="-from"]`}
        >
          Zeitraum hinzufügen
        </AddButton>
        <FieldErrors errors={list.errors} />
      </div>
    </div>
  );
}

function BlockedDays({ form, list }: { form: SettingsForm; list: BlockedList }) {
  const settingsList = useSettingsList(form, list, "blocked-add");
  const { rows, keys, focusIndex } = settingsList;
  return (
    <fieldset className="space-y-2">
      <legend className="font-semibold">Gesperrte Tage</legend>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Z. B. Betriebsurlaub oder Messe: an diesen Tagen gibt es keine Termine.
      </p>
      <ul className="space-y-2">
        {rows.map((row, index) => {
          const range = row.getFieldset();
          return (
            <li
              key={keys[index]}
              className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end dark:border-slate-700"
            >
              <SettingInput
                meta={range.from}
                id={`blocked-${index}-from`}
                label="Von"
                labelClassName={smallLabel}
                type="date"
                required
                autoFocus={focusIndex === index}
              />
              <SettingInput
                meta={range.to}
                id={`blocked-${index}-to`}
                label="Bis (optional)"
                labelClassName={smallLabel}
                type="date"
              />
              <SettingInput
                meta={range.note}
                id={`blocked-${index}-note`}
                label="Notiz (optional)"
                labelClassName={smallLabel}
                maxLength={200}
              />
              <RemoveButton
                list={settingsList}
                index={index}
                label={`Gesperrten Zeitraum ${index + 1} entfernen`}
              />
            </li>
          );
        })}
      </ul>
      <AddButton
        list={settingsList}
        defaultValue={{ from: "", to: "", note: "" }}
        focus={'[id^="blocked-"][id$="-from"]'}
      >
        Gesperrten Tag hinzufügen
      </AddButton>
      <FieldErrors errors={list.errors} />
    </fieldset>
  );
}
