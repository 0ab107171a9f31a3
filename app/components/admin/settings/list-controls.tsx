import type { FormMetadata, SubmissionResult } from "@conform-to/react";
import { useContext, useEffect, useRef } from "react";
import type { SettingsFormInput } from "~/lib/settings-form";
import { SettingsErrors } from "./section";

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

const moveClass =
  "rounded px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 disabled:opacity-40 dark:text-slate-300 dark:hover:bg-slate-800";

/** "Nach oben" / "Nach unten" for row `index` of `name` (Conform's reorder intent). */
export function MoveButtons({
  form,
  name,
  index,
  count,
  label,
  idPrefix,
  autoFocus,
  onMove,
}: {
  form: SettingsForm;
  name: string;
  index: number;
  count: number;
  /** What the row is called in the buttons' names ("Feld Zielgruppe"). */
  label: string;
  /** The buttons' ids: `<prefix>-up`, `<prefix>-down` (by index: the same on server and client). */
  idPrefix: string;
  autoFocus?: "up" | "down";
  /** With JS: called with the id of the button to focus once the row has moved. */
  onMove?: (to: number, direction: "up" | "down") => void;
}) {
  const buttons = [
    ["up", "↑", "nach oben", index - 1],
    ["down", "↓", "nach unten", index + 1],
  ] as const;
  // A row moved to an end: its button in that direction is disabled and cannot take the focus, so
  // the other one does (without JS the page is new and `autoFocus` must land on a real button).
  const atEnd = (direction: "up" | "down") =>
    direction === "up" ? index - 1 < 0 : index + 1 >= count;
  const focusDirection =
    autoFocus && atEnd(autoFocus) ? (autoFocus === "up" ? "down" : "up") : autoFocus;
  return (
    <div className="flex gap-1">
      {buttons.map(([direction, arrow, text, to]) => (
        <button
          key={direction}
          id={`${idPrefix}-${direction}`}
          className={moveClass}
          aria-label={`${label} ${text}`}
          disabled={to < 0 || to >= count}
          autoFocus={focusDirection === direction}
          {...form.reorder.getButtonProps({ name, from: index, to })}
          onClick={() => onMove?.(to, direction)}
        >
          <span aria-hidden="true">{arrow}</span>
        </button>
      ))}
    </div>
  );
}
