import { useContext } from "react";
import { buttonClass } from "~/components/ui/button";
import { FieldErrors, inputClass } from "~/components/ui/field";
import type { SettingsForm } from "./list-controls";
import { initialText, SettingsErrors, type SettingsField, useFieldErrors } from "./section";

const hint = "mt-1 text-xs text-slate-500 dark:text-slate-400";

/**
 * A text of the settings form with a button that puts a given text into it (Conform's update
 * intent: with JS in place, without JS the server shows the form again with the text filled in;
 * it is stored when the form is saved) — the brand's "Zurücksetzen", the statement's "Vorschlag
 * einsetzen".
 */
export function TextWithDefault({
  form,
  meta,
  id,
  title,
  rows,
  note,
  insert,
}: {
  form: SettingsForm;
  meta: SettingsField;
  id: string;
  title: string;
  /** A textarea with this many rows (else one line). */
  rows?: number;
  note?: string;
  /** The text the button puts in, the button's visible label and what its name adds after the title. */
  insert: { value: string; label: string; what?: string };
}) {
  const { errors, autoFocus } = useFieldErrors(meta);
  // Without JS the server answers the button with the whole page: the button takes the focus
  // again (and so the text is in view, not the top of the page); with JS it keeps it anyway.
  const { intent } = useContext(SettingsErrors);
  const wasInserted = intent?.type === "update" && intent.payload.name === meta.name;
  const described = [note ? `${id}-hint` : null, errors?.length ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");
  const shared = {
    id,
    name: meta.name,
    defaultValue: initialText(meta),
    className: inputClass,
    "aria-invalid": errors?.length ? true : undefined,
    "aria-describedby": described || undefined,
    autoFocus,
  } as const;
  return (
    <div>
      <div className="mb-1 flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium">
          {title}
        </label>
        <button
          className={buttonClass("ghost", "sm")}
          autoFocus={wasInserted}
          {...form.update.getButtonProps({ name: meta.name, value: insert.value })}
        >
          {insert.label}
          <span className="sr-only">{` (${title}${insert.what ? `: ${insert.what}` : ""})`}</span>
        </button>
      </div>
      {rows ? (
        <textarea key={meta.key} rows={rows} {...shared} />
      ) : (
        <input key={meta.key} type="text" {...shared} />
      )}
      {note ? (
        <p id={`${id}-hint`} className={hint}>
          {note}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}
