/** The four kinds of the spec's generic modal system. */
export type ModalKind = "success" | "error" | "confirm" | "info";

/** What a key press inside an open message modal does. */
export type ModalKeyAction = "confirm" | "cancel" | "close" | null;

/** The focused element as far as the key rules care (a DOM element fits). */
export type KeyTarget = { tagName?: string; isContentEditable?: boolean } | null | undefined;

/** Typing in these must never confirm or close a dialog. */
export function isTypingTarget(target: KeyTarget): boolean {
  if (!target) return false;
  const tag = target.tagName?.toUpperCase();
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !!target.isContentEditable;
}

/** Buttons and links act on Enter themselves (native activation), so the dialog must not as well. */
function activatesItself(target: KeyTarget): boolean {
  const tag = target?.tagName?.toUpperCase();
  return tag === "BUTTON" || tag === "A" || tag === "SUMMARY";
}

/**
 * The spec's key rules: Enter confirms (OK closes the non-confirm kinds); Escape cancels a confirm
 * dialog and closes the others; both are ignored while typing in an input or text area. Enter on a
 * button is left to that button, so Enter on 'Abbrechen' cancels instead of confirming.
 */
export function modalKeyAction(key: string, kind: ModalKind, target: KeyTarget): ModalKeyAction {
  if (isTypingTarget(target)) return null;
  if (key === "Escape" || key === "Esc") return backdropAction(kind);
  if (key === "Enter") {
    if (activatesItself(target)) return null;
    return kind === "confirm" ? "confirm" : "close";
  }
  return null;
}

/** A click on the backdrop acts like Escape. */
export function backdropAction(kind: ModalKind): Exclude<ModalKeyAction, "confirm" | null> {
  return kind === "confirm" ? "cancel" : "close";
}

/**
 * Focus trap: the index to focus after Tab (or Shift+Tab) from `current` among `count` focusable
 * elements; wraps around at both ends. `current` -1 means focus is not on one of them.
 */
export function nextFocusIndex(current: number, count: number, backwards: boolean): number {
  if (count <= 0) return -1;
  if (current < 0) return backwards ? count - 1 : 0;
  return backwards ? (current - 1 + count) % count : (current + 1) % count;
}

/** Stacked modals: the first layer sits at z-index 50, each further one higher. */
export function modalZIndex(depth: number): number {
  return 50 + Math.max(0, depth) * 10;
}
