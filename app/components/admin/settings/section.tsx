import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { Card } from "~/components/ui/card";
import { inputClass } from "~/components/ui/field";
import type { SettingsSection } from "~/lib/settings-form";

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
    <Card className="space-y-4 p-5">
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

/** A labelled input of the settings form; `name` defaults to `id`. */
export function SettingInput({
  id,
  label: text,
  labelClassName = label,
  ...props
}: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {text}
      </label>
      <input id={id} name={id} className={inputClass} {...props} />
    </div>
  );
}

/** A number setting: id (also the posted name), label, allowed range and current value. */
export type NumberSetting = readonly [
  id: string,
  label: string,
  min: number,
  max: number,
  value: number,
];

/** One number input per setting, in the given order. */
export function NumberSettings({ settings }: { settings: readonly NumberSetting[] }) {
  return (
    <>
      {settings.map(([id, text, min, max, value]) => (
        <SettingInput
          key={id}
          id={id}
          label={text}
          type="number"
          min={min}
          max={max}
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
