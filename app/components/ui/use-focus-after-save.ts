import { useEffect, useRef } from "react";

/**
 * A control that saves on change and is drawn anew with the saved value (a new `key`, in the
 * render that ends the save): it keeps the keyboard's focus it had when the change was made, once
 * the save is done (`idle`). Without it the
 * focus fell to the page after every change of a status or phase select.
 */
export function useFocusAfterSave<T extends HTMLElement>(idle: boolean) {
  const ref = useRef<T>(null);
  const hadFocus = useRef(false);
  useEffect(() => {
    if (!idle || !hadFocus.current) return;
    hadFocus.current = false;
    ref.current?.focus();
  }, [idle]);
  return {
    ref,
    /** Call in the change handler, before the save. */
    remember: () => {
      hadFocus.current = document.activeElement === ref.current;
    },
    /** Call before a save posted from elsewhere (a step that closes with it): the control takes the focus once it is done. */
    take: () => {
      hadFocus.current = true;
    },
  };
}
