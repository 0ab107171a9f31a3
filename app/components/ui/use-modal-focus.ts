import { type RefObject, useEffect, useRef, useState } from "react";
import { modalKeyAction, nextFocusIndex } from "~/lib/modal-keys";

/** Open modals, bottom first: only the topmost one reacts to keys and keeps the focus. */
const openStack: number[] = [];
let lastModalId = 0;
/** The body's overflow before the first modal opened (restored when the last one closes). */
let bodyOverflow = "";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), audio[controls], video[controls], summary';

export function focusablesIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.hasAttribute("inert") && el.getClientRects().length > 0,
  );
}

/**
 * Makes everything outside `dialog` inert (the siblings of the dialog and of each of its
 * ancestors) except elements marked `data-inert-exempt` (the toast live region); returns the undo.
 */
function inertOutside(dialog: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  for (let node: HTMLElement = dialog; node.parentElement; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      if (sibling.hasAttribute("data-inert-exempt") || sibling.tagName === "SCRIPT") continue;
      sibling.inert = true;
      changed.push(sibling);
    }
    if (node.parentElement === document.body) break;
  }
  return () => {
    for (const element of changed) element.inert = false;
  };
}

export type ModalFocusOptions = {
  /** Escape (not while typing in a field); ignored while `dismissible` is false. */
  onCancel: () => void;
  /** Enter when focus is not in a field or on a button/link. */
  onEnter?: () => void;
  dismissible?: boolean;
  /** Element focused on open; default the first focusable element, else the dialog. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Make the rest of the page inert while open (a dialog rendered inside the page tree). */
  inert?: boolean;
  /** Where the focus goes on close when nothing had it on open (the modal opened with the page). */
  returnFocus?: () => HTMLElement | null;
};

/**
 * The focus handling of every modal (the Modal shell, the requests' full-screen view): on open the
 * focus moves in (unless it is already inside), Tab and Shift+Tab wrap inside, focus that escapes is
 * brought back, Escape cancels, the body does not scroll; on close the focus returns to where it
 * was. Stacked modals: only the topmost reacts. Returns the depth (0 = bottom) for the z-index.
 */
export function useModalFocus(
  open: boolean,
  dialogRef: RefObject<HTMLElement | null>,
  options: ModalFocusOptions,
): number {
  const [depth, setDepth] = useState(0);
  // Latest callbacks without re-running the open effect (which would move the focus again).
  const handlers = useRef(options);
  handlers.current = options;
  const { initialFocusRef, inert = false } = options;

  useEffect(() => {
    if (!open) return;
    const id = ++lastModalId;
    openStack.push(id);
    setDepth(openStack.length - 1);
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    const isTop = () => openStack[openStack.length - 1] === id;
    if (openStack.length === 1) bodyOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const undoInert = dialog && inert ? inertOutside(dialog) : () => {};

    if (dialog && !dialog.contains(document.activeElement)) {
      const first = initialFocusRef?.current ?? focusablesIn(dialog)[0] ?? dialog;
      // A view that opened with the page (server-rendered, ?requestId=) and was scrolled before
      // it hydrated keeps its place: the focus moves in without jumping back to the top.
      first.focus({ preventScroll: dialog.scrollTop > 0 });
    }

    function onKeyDown(event: KeyboardEvent) {
      if (!isTop() || !dialog || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (event.key === "Tab") {
        const items = focusablesIn(dialog);
        const current = items.indexOf(document.activeElement as HTMLElement);
        const next = nextFocusIndex(current, items.length, event.shiftKey);
        event.preventDefault();
        (items[next] ?? dialog).focus();
        return;
      }
      const action = modalKeyAction(event.key, "confirm", target);
      const { onCancel, onEnter, dismissible = true } = handlers.current;
      if (action === "cancel" && dismissible) {
        event.preventDefault();
        onCancel();
      } else if (action === "confirm" && onEnter) {
        event.preventDefault();
        onEnter();
      }
    }
    function onFocusIn(event: FocusEvent) {
      if (!isTop() || !dialog) return;
      if (event.target instanceof Node && !dialog.contains(event.target)) {
        (focusablesIn(dialog)[0] ?? dialog).focus();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
      openStack.splice(openStack.indexOf(id), 1);
      if (openStack.length === 0) document.body.style.overflow = bodyOverflow;
      undoInert();
      const back =
        previous?.isConnected && previous !== document.body
          ? previous
          : handlers.current.returnFocus?.();
      back?.focus();
    };
  }, [open, dialogRef, initialFocusRef, inert]);

  return depth;
}
