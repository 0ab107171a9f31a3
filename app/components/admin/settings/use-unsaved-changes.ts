import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import { useModal } from "~/components/ui/modal";
import { useHydrated } from "~/components/ui/use-hydrated";
import { UNSAVED_CHANGES_MESSAGE, UNSAVED_CHANGES_TITLE } from "~/lib/settings-form";

const snapshot = (form: HTMLFormElement | null) =>
  form ? new URLSearchParams(new FormData(form) as unknown as string[][]).toString() : "";

/**
 * Unsaved changes of a form (ADR 235): dirty when its values differ from those it was rendered
 * with (or from the start, when it shows a draft that was not saved). While dirty, leaving the page
 * asks first: a document navigation (reload, "Zur Website", closing the tab) through the browser's
 * `beforeunload` dialog, an in-app link through a German confirmation (React Router's blocker).
 * Posts to the page itself (saving, list edits, the webhook forms) are never held up.
 */
export function useUnsavedChanges(form: RefObject<HTMLFormElement | null>, draft: boolean) {
  const [dirty, setDirty] = useState(draft);
  const dirtyRef = useRef(draft);
  const baseline = useRef<string | null>(null);
  const modal = useModal();
  const hydrated = useHydrated();

  /** Call on every input/change of the form. */
  const check = useCallback(() => {
    // No baseline yet (hydrating): nothing can have been changed.
    const next =
      draft || (baseline.current !== null && snapshot(form.current) !== baseline.current);
    dirtyRef.current = next;
    setDirty(next);
  }, [form, draft]);

  // Taken once the hydrated form is in place (some cards render other inputs without JS), and
  // compared again: a check the form ran while hydrating had nothing to compare with.
  useEffect(() => {
    if (!hydrated) return;
    baseline.current = snapshot(form.current);
    check();
  }, [form, hydrated, check]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only with a return value.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    let active = true;
    modal
      .confirm({
        title: UNSAVED_CHANGES_TITLE,
        message: UNSAVED_CHANGES_MESSAGE,
        confirmLabel: "Verlassen und verwerfen",
        danger: true,
      })
      .then((leave) => {
        if (!active) return;
        if (leave) {
          dirtyRef.current = false;
          blocker.proceed();
        } else blocker.reset();
      });
    return () => {
      active = false;
    };
  }, [blocker, modal]);

  return { dirty, check };
}
