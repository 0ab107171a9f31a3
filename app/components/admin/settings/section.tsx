import type { FieldMetadata, FormMetadata, SubmissionResult } from "@conform-to/react";
import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useContext,
} from "react";
import { Card } from "~/components/ui/card";
import { FieldErrors, inputClass } from "~/components/ui/field";
import { isNumberSettingPath, NUMBER_SETTINGS } from "~/lib/setting-ranges";
import type { SettingsFormInput, SettingsSection } from "~/lib/settings-form";
import { useSettingsIndexEntry } from "./settings-index";

/**
 * Beside Conform's own errors: the browser's refusals (with JS, by posted name) and the field a
 * refused post names first (focused, `autoFocus`, so without JS too).
 */
export const SettingsErrors = createContext<{
  fieldErrors?: Record<string, string[]>;
  focus?: string;
  /** The list intent the server just applied (without JS), for the focus after it. */
  intent?: NonNullable<SubmissionResult<string[]>["intent"]>;
}>({});

/** The settings form's fields (Conform's fieldset of `SettingsFormSchema`). */
export type SettingsFields = ReturnType<FormMetadata<SettingsFormInput, string[]>["getFieldset"]>;
/** One field of the settings form, whatever its type. */
// biome-ignore lint/suspicious/noExplicitAny: any field of the settings form
export type SettingsField = FieldMetadata<any, SettingsFormInput, string[]>;

/** A field's current initial value as text (a number or a text; a list's first entry). */
export const initialText = (meta: SettingsField): string | undefined => {
  const value = meta.initialValue as unknown;
  return typeof value === "string" ? value : undefined;
};
/** The values of a checkbox group or list of texts (one posted value arrives as a string). */
export const initialList = (meta: SettingsField): string[] => {
  const value = meta.initialValue as unknown;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
};
/** Whether a checkbox is ticked ("on", the posted and the serialised value). */
export const isChecked = (meta: SettingsField) => meta.initialValue === "on";

/** Errors of a field: Conform's (server and client schema), else the browser's. */
export function useFieldErrors(meta: SettingsField) {
  const { fieldErrors, focus } = useContext(SettingsErrors);
  return { errors: meta.errors ?? fieldErrors?.[meta.name], autoFocus: focus === meta.name };
}

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
  useSettingsIndexEntry(name, title);
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

type Labelled = { id?: string; label: ReactNode; labelClassName?: string };

/**
 * A labelled input bound to a settings field (name and value from Conform; `id` defaults to
 * Conform's). Its errors are shown under it and linked; the first refused field is focused.
 */
export function SettingInput({
  meta,
  id = meta.id,
  label: text,
  labelClassName = label,
  autoFocus: focusHere,
  ...props
}: Labelled & { meta: SettingsField } & InputHTMLAttributes<HTMLInputElement>) {
  const { errors, autoFocus } = useFieldErrors(meta);
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {text}
      </label>
      <input
        key={meta.key}
        id={id}
        name={meta.name}
        defaultValue={initialText(meta)}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
        autoFocus={autoFocus || focusHere}
        {...props}
      />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** A number setting: its field (whose name names its range), the input's id and label. */
export type NumberSetting = readonly [meta: SettingsField, id: string, label: string];

/** One number input per setting, in the given order, with its range (NUMBER_SETTINGS). */
export function NumberSettings({ settings }: { settings: readonly NumberSetting[] }) {
  return (
    <>
      {settings.map(([meta, id, text]) => {
        const range = isNumberSettingPath(meta.name) ? NUMBER_SETTINGS[meta.name] : undefined;
        return (
          <SettingInput
            key={id}
            meta={meta}
            id={id}
            label={text}
            type="number"
            required
            min={range?.min}
            max={range?.max}
          />
        );
      })}
    </>
  );
}

/** A labelled select of the settings form; `name` defaults to `id`. */
export function SettingSelect({
  meta,
  id = meta.id,
  label: text,
  labelClassName = label,
  children,
  ...props
}: Labelled & { meta: SettingsField } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {text}
      </label>
      <select
        key={meta.key}
        id={id}
        name={meta.name}
        defaultValue={initialText(meta) ?? ""}
        className={inputClass}
        {...props}
      >
        {children}
      </select>
    </div>
  );
}
