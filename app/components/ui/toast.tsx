import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { ToastMessage, ToastType } from "~/lib/toast";

export type ToastApi = {
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
};

/** How long a toast stays (errors a little longer); hovering or focusing it pauses the timer. */
export const TOAST_DURATION_MS: Record<ToastType, number> = {
  success: 5000,
  info: 5000,
  error: 8000,
};

const TONES: Record<ToastType, string> = {
  success:
    "border-green-200 bg-green-50 text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100",
  error:
    "border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100",
  info: "border-indigo-200 bg-indigo-50 text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950 dark:text-indigo-100",
};

const ToastContext = createContext<ToastApi | null>(null);

const closeIcon = (
  <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4">
    <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
  </svg>
);

function ToastItem({
  toast,
  hydrated,
  onDismiss,
}: {
  toast: ToastMessage;
  hydrated: boolean;
  onDismiss: (id: string) => void;
}) {
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_DURATION_MS[toast.type]);
    return () => clearTimeout(timer);
  }, [paused, onDismiss, toast.id, toast.type]);

  const checkboxId = `toast-${toast.id}`;
  return (
    <div className="pointer-events-auto w-full max-w-sm">
      {/* Without JavaScript the checkbox hides the toast (CSS only); with JS a real button does. */}
      {hydrated ? null : (
        <input id={checkboxId} type="checkbox" className="peer sr-only" aria-label="Schließen" />
      )}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only pause the auto-dismiss timer */}
      <div
        data-toast={toast.type}
        className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg peer-checked:hidden peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500 ${TONES[toast.type]}`}
        onMouseEnter={() => setPaused(true)}
        onMouseLeave={() => setPaused(false)}
        onFocus={() => setPaused(true)}
        onBlur={() => setPaused(false)}
      >
        <p className="flex-1 whitespace-pre-line">{toast.message}</p>
        {hydrated ? (
          <button
            type="button"
            onClick={() => onDismiss(toast.id)}
            aria-label="Schließen"
            className="-m-1 rounded p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            {closeIcon}
          </button>
        ) : (
          <label
            htmlFor={checkboxId}
            className="-m-1 cursor-pointer rounded p-1 opacity-70 hover:opacity-100"
          >
            {closeIcon}
          </label>
        )}
      </div>
    </div>
  );
}

let lastToastId = 0;

/** At most this many toasts at once (older ones go first): a stack never fills a phone. */
export const TOAST_LIMIT = 3;

/**
 * The list with `toast` added: the same message shown again replaces its older copy (a refused
 * save posted twice), a success ends the errors before it (the save that failed has now worked)
 * and an error the successes before it (a stale "gespeichert" never stacks over a refused field),
 * and only the newest TOAST_LIMIT stay.
 */
export function withToast(list: ToastMessage[], toast: ToastMessage): ToastMessage[] {
  const kept = list.filter(
    (t) =>
      !(t.type === toast.type && t.message === toast.message) &&
      !(toast.type === "success" && t.type === "error") &&
      !(toast.type === "error" && t.type === "success"),
  );
  return [...kept, toast].slice(-TOAST_LIMIT);
}

/**
 * Renders toasts in a polite live region, where no save button sits: at the top on phones (sticky
 * save bars sit at the bottom), in the bottom-left corner from 640 px (save buttons sit right). `serverToast` is
 * the flash toast of the root loader: it is server-rendered, so it shows without JavaScript too.
 */
export function ToastProvider({
  children,
  serverToast,
}: {
  children: ReactNode;
  serverToast?: ToastMessage | null;
}) {
  const [toasts, setToasts] = useState<ToastMessage[]>(() => (serverToast ? [serverToast] : []));
  const [hydrated, setHydrated] = useState(false);
  const seen = useRef(new Set(serverToast ? [serverToast.id] : []));

  useEffect(() => setHydrated(true), []);
  // Flash toasts of later navigations (the root loader revalidates) join the list once each.
  useEffect(() => {
    if (!serverToast || seen.current.has(serverToast.id)) return;
    seen.current.add(serverToast.id);
    setToasts((list) => withToast(list, serverToast));
  }, [serverToast]);

  const dismiss = useCallback((id: string) => {
    setToasts((list) => list.filter((t) => t.id !== id));
  }, []);
  const api = useMemo<ToastApi>(() => {
    const add = (type: ToastType) => (message: string) => {
      const id = `c${++lastToastId}`;
      setToasts((list) => withToast(list, { id, type, message }));
    };
    return { success: add("success"), error: add("error"), info: add("info") };
  }, []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* From 640 px the toasts sit in the bottom-left corner: room at the page's end, so the
          last thing on the page (a card just moved, its links) can scroll out from under them —
          without JS a toast stays until it is closed. With the flash toast of a navigation it is
          there in the render that scrolls to the page's anchor. */}
      {toasts.length || serverToast ? (
        <div aria-hidden="true" data-toast-room="" className="hidden h-32 sm:block" />
      ) : null}
      <section
        aria-live="polite"
        aria-label="Benachrichtigungen"
        // Stays reachable while a full-screen modal makes the page behind it inert.
        data-inert-exempt=""
        data-hydrated={hydrated ? "" : undefined}
        className="pointer-events-none fixed inset-x-0 top-0 z-[1000] flex flex-col items-center gap-2 p-4 sm:top-auto sm:bottom-0 sm:items-start"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} hydrated={hydrated} onDismiss={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

/** Short notices that disappear by themselves: `useToast().success('Gespeichert')`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast() needs a <ToastProvider> (root.tsx renders one)");
  return api;
}
