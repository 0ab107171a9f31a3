import type { FormMetadata, SubmissionResult } from "@conform-to/react";
import { type InputHTMLAttributes, type ReactNode, useContext, useEffect, useRef } from "react";
import { buttonClass } from "~/components/ui/button";
import { FieldErrors, inputClass } from "~/components/ui/field";
import type { SettingsFormInput } from "~/lib/settings-form";
import { initialText, SettingsErrors, type SettingsField, useFieldErrors } from "./section";

// The pieces every list of the settings form shares (preparation fields, external addresses):
// Conform's insert/remove/reorder buttons work without JS (the server applies the intent with
// parseWithZod and shows the form again) and with JS (Conform changes the list in place).

export type SettingsForm = FormMetadata<SettingsFormInput, string[]>;
export type ListIntent = NonNullable<SubmissionResult<string[]>["intent"]>;

/**
 * With JS: the element to focus once the list has changed (a new row's first input, the moved
 * row's button, "add" after a removal); `keys` are the rows' Conform keys.
 */
export function useFocusAfterListChange(keys: readonly string[]) {
  const signature = keys.join(" ");
  const pending = useRef<{ from: string; target: () => HTMLElement | null } | null>(null);
  useEffect(() => {
    const next = pending.current;
    if (!next || next.from === signature) return;
    pending.current = null;
    next.target()?.focus();
  }, [signature]);
  return (target: () => HTMLElement | null) => {
    pending.current = { from: signature, target };
  };
}

/**
 * Without JS: what to focus after the server applied a list intent to `list` (the page is new, so
 * `autoFocus` does it): the new row, the moved row or, after a removal, the list's add button.
 */
export function useListIntent(list: string): ListIntent | undefined {
  const { intent } = useContext(SettingsErrors);
  return intent && "name" in intent.payload && intent.payload.name === list ? intent : undefined;
}

/** The index a list intent leaves focus on (insert: the new row, reorder: the moved one). */
export function focusedIndex(intent: ListIntent | undefined, count: number): number | undefined {
  if (intent?.type === "insert") return intent.payload.index ?? count - 1;
  if (intent?.type === "reorder") return intent.payload.to;
  return undefined;
}

/** A list's state for its rows and buttons: rows, their keys and where focus goes after a change. */
export type SettingsList = {
  form: SettingsForm;
  name: string;
  count: number;
  keys: string[];
  /** The list's add button (focused after a removal). */
  addId: string;
  intent: ListIntent | undefined;
  focusIndex: number | undefined;
  focusAfter: (target: () => HTMLElement | null) => void;
};

/** One list of the settings form (Conform keys the rows; rows the server added have none yet). */
export function useSettingsList<Row extends { key?: string }>(
  form: SettingsForm,
  list: { name: string; getFieldList: () => Row[] },
  addId: string,
  keyPrefix = "row",
): SettingsList & { rows: Row[] } {
  const rows = list.getFieldList();
  const keys = rows.map((row, index) => row.key ?? `${keyPrefix}-${index}`);
  const focusAfter = useFocusAfterListChange(keys);
  const intent = useListIntent(list.name);
  const focusIndex = focusedIndex(intent, rows.length);
  const name = list.name;
  return { form, name, rows, count: rows.length, keys, addId, intent, focusIndex, focusAfter };
}

/**
 * Row `index`'s remove button props (Conform's remove intent; with JS `focusAfter` — by default
 * the list's add button — is focused once the row is gone).
 */
export function removeButtonProps(
  list: SettingsList,
  index: number,
  focusAfter: () => HTMLElement | null = () => document.getElementById(list.addId),
) {
  return {
    ...list.form.remove.getButtonProps({ name: list.name, index }),
    onClick: () => list.focusAfter(focusAfter),
  };
}

/** Row `index`'s "Entfernen" button, named by `label` ("Phase Angebot entfernen"). */
export function RemoveButton({
  list,
  index,
  label,
  variant = "ghost",
  focusAfter,
}: {
  list: SettingsList;
  index: number;
  label: string;
  variant?: "ghost" | "secondary" | "danger";
  /** With JS, what takes the focus once the row is gone (default: the list's add button). */
  focusAfter?: () => HTMLElement | null;
}) {
  return (
    <button
      className={buttonClass(variant, "sm")}
      aria-label={label}
      {...removeButtonProps(list, index, focusAfter)}
    >
      Entfernen
    </button>
  );
}

/** The list's add button; with JS the last element matching `focus` is focused once added. */
export function AddButton({
  list,
  defaultValue,
  focus,
  label,
  focusOnRemove = true,
  children,
}: {
  list: SettingsList;
  /** Whether a removal (without JS) leaves focus here (else the list puts it elsewhere). */
  focusOnRemove?: boolean;
  defaultValue: string | Record<string, string>;
  /** A selector of the rows' first inputs. */
  focus: string;
  /** An accessible name when the visible text alone is ambiguous (several lists in one card). */
  label?: string;
  children: ReactNode;
}) {
  return (
    <button
      id={list.addId}
      aria-label={label}
      className={buttonClass("secondary", "sm")}
      autoFocus={focusOnRemove && list.intent?.type === "remove"}
      {...list.form.insert.getButtonProps<(string | Record<string, string>)[]>({
        name: list.name,
        defaultValue,
      })}
      onClick={() =>
        list.focusAfter(() => {
          const inputs = document.querySelectorAll<HTMLInputElement>(focus);
          return inputs[inputs.length - 1] ?? null;
        })
      }
    >
      {children}
    </button>
  );
}

const moveClass =
  "rounded px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 disabled:opacity-40 dark:text-slate-300 dark:hover:bg-slate-800";

/**
 * "Nach oben" / "Nach unten" for row `index` (Conform's reorder intent); the moved row's button
 * keeps focus, with and without JS.
 */
export function MoveButtons({
  list,
  index,
  label,
  idPrefix,
}: {
  list: SettingsList;
  index: number;
  /** What the row is called in the buttons' names ("Feld Zielgruppe"). */
  label: string;
  /** The buttons' ids: `<prefix>-<index>-up`, `…-down` (by index: the same on server and client). */
  idPrefix: string;
}) {
  const { intent } = list;
  const autoFocus =
    list.focusIndex === index && intent?.type === "reorder"
      ? intent.payload.from > index
        ? "up"
        : "down"
      : undefined;
  const onMove = (to: number, direction: "up" | "down") =>
    list.focusAfter(() => {
      const moved = document.getElementById(`${idPrefix}-${to}-${direction}`);
      return moved instanceof HTMLButtonElement && moved.disabled
        ? document.getElementById(`${idPrefix}-${to}-${direction === "up" ? "down" : "up"}`)
        : moved;
    });
  const buttons = [
    ["up", "↑", "nach oben", index - 1],
    ["down", "↓", "nach unten", index + 1],
  ] as const;
  // A row moved to an end: its button in that direction is disabled and cannot take the focus, so
  // the other one does (without JS the page is new and `autoFocus` must land on a real button).
  const atEnd = (direction: "up" | "down") =>
    direction === "up" ? index - 1 < 0 : index + 1 >= list.count;
  const focusDirection =
    autoFocus && atEnd(autoFocus) ? (autoFocus === "up" ? "down" : "up") : autoFocus;
  return (
    <div className="flex gap-1">
      {buttons.map(([direction, arrow, text, to]) => (
        <button
          key={direction}
          id={`${idPrefix}-${index}-${direction}`}
          className={moveClass}
          aria-label={`${label} ${text}`}
          disabled={to < 0 || to >= list.count}
          autoFocus={focusDirection === direction}
          {...list.form.reorder.getButtonProps({ name: list.name, from: index, to })}
          onClick={() => onMove(to, direction)}
        >
          <span aria-hidden="true">{arrow}</span>
        </button>
      ))}
    </div>
  );
}

/**
 * One text entry of a list of strings: its (visually hidden) label, its input (Enter adds the next
 * one, with JS) and its remove button, named by the typed value (with JS as it is typed).
 */
export function TextListRow({
  list,
  meta,
  index,
  label,
  emptyName,
  hint,
  rowClassName,
  removeClassName,
  inputProps,
}: {
  list: SettingsList;
  meta: SettingsField;
  index: number;
  /** The label before the row's number ("Externe E-Mail-Adresse 2"). */
  label: string;
  /** What the remove button names an empty row ("Leere Adresse entfernen"). */
  emptyName: string;
  /** The id of a hint the input is described by. */
  hint?: string;
  rowClassName: string;
  removeClassName: string;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
}) {
  const { errors, autoFocus: refused } = useFieldErrors(meta);
  const value = typeof meta.value === "string" ? meta.value : initialText(meta);
  const describedBy = [errors?.length ? meta.errorId : "", hint ?? ""].filter(Boolean).join(" ");
  const { className, ...attributes } = inputProps;
  return (
    <li>
      <div className={rowClassName}>
        <label htmlFor={meta.id} className="sr-only">
          {label} {index + 1}
        </label>
        <input
          key={meta.key}
          id={meta.id}
          name={meta.name}
          type="text"
          {...attributes}
          defaultValue={initialText(meta)}
          className={`${inputClass} ${className}`}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy || undefined}
          autoFocus={list.focusIndex === index || refused}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              document.getElementById(list.addId)?.click();
            }
          }}
        />
        <button
          className={removeClassName}
          aria-label={`${value || emptyName} entfernen`}
          {...removeButtonProps(list, index)}
        >
          ×
        </button>
      </div>
      <FieldErrors id={meta.errorId} errors={errors} />
    </li>
  );
}

/**
 * A list of short machine-like entries (addresses, domains, origins; the blocklist and the embed
 * websites): one compact row each, no capitals or autocorrect, labelled by a visible heading.
 */
export function CompactTextList({
  list,
  labelledBy,
  label,
  emptyName,
  hint,
  type = "text",
  placeholder,
}: {
  list: SettingsList & { rows: SettingsField[]; keys: string[] };
  /** The id of the visible heading the list is named by. */
  labelledBy: string;
  label: string;
  emptyName: string;
  hint: string;
  type?: string;
  placeholder: string;
}) {
  return (
    <ul className="mb-2 space-y-2" aria-labelledby={labelledBy}>
      {list.rows.map((row, index) => (
        <TextListRow
          key={list.keys[index]}
          list={list}
          meta={row}
          index={index}
          label={label}
          emptyName={emptyName}
          hint={hint}
          rowClassName="flex items-center gap-2"
          removeClassName="shrink-0 rounded-full px-2 text-slate-500 hover:bg-slate-200 dark:text-slate-400 dark:hover:bg-slate-700"
          inputProps={{
            type,
            autoCapitalize: "none",
            autoCorrect: "off",
            spellCheck: false,
            placeholder,
            className: "max-w-sm",
          }}
        />
      ))}
    </ul>
  );
}
