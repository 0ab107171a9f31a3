import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useContext,
} from "react";
import { Card } from "~/components/ui/card";
import { FieldErrors, inputClass } from "~/components/ui/field";
import {
  SETTINGS_NUMBER_RANGES,
  type SettingsNumberField,
  type SettingsSection,
} from "~/lib/settings-form";

/** The settings form's field errors (server and browser) and the field to focus, by posted name. */
export const SettingsErrors = createContext<{
  fieldErrors?: Record<string, string[]>;
  focus?: string;
}>({});

/** One titled card of the settings form. */
export function Section({
  name,
  title,
  children,
  description,
}: {
  /** Posted as the section marker: a save without every marker is refused. */
  name: SettingsSection;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    // The section's name is its anchor too (the go-live check links to "#notifications").
    <Card id={name} className="scroll-mt-24 space-y-4 p-5">
      <input type="hidden" name="section" value={name} />
      <div>
        <h2 className="text-lg font-semibold">{title}</h2>
        {description ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>
        ) : null}
      </div>
      {children}
    </Card>
  );
}

export const label = "mb-1 block text-sm font-medium";
/** The smaller label of list rows (preparation fields). */
export const smallLabel = "text-xs text-slate-500 dark:text-slate-400";

type Labelled = { id: string; label: ReactNode; labelClassName?: string };

/**
 * A labelled input of the settings form; `name` defaults to `id`. Its errors (by name) are shown
 * under it and linked; the first refused field is focused (autoFocus: without JS too).
 */
export function SettingInput({
  id,
  label: text,
  labelClassName = label,
  ...props
}: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  const { fieldErrors, focus } = useContext(SettingsErrors);
  const name = props.name ?? id;
  const errors = fieldErrors?.[name];
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {text}
      </label>
      <input
        id={id}
        name={name}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
        autoFocus={focus === name}
        {...props}
      />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** A number setting: id (also the posted name, which names its range), label and current value. */
export type NumberSetting = readonly [
  id: SettingsNumberField,
  label: string,
  value: number | string,
];

/** One number input per setting, in the given order, with its range (SETTINGS_NUMBER_RANGES). */
export function NumberSettings({ settings }: { settings: readonly NumberSetting[] }) {
  return (
    <>
      {settings.map(([id, text, value]) => (
        <SettingInput
          key={id}
          id={id}
          label={text}
          type="number"
          required
          min={SETTINGS_NUMBER_RANGES[id][0]}
          max={SETTINGS_NUMBER_RANGES[id][1]}
          defaultValue={value}
        />
      ))}
    </>
  );
}

/** A labelled select of the settings form; `name` defaults to `id`. */
export function SettingSelect({
  id,
  label: text,
  labelClassName = label,
  children,
  ...props
}: Labelled & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {text}
      </label>
      <select id={id} name={id} className={inputClass} {...props}>
        {children}
      </select>
    </div>
  );
}
