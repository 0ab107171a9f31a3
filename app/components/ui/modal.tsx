import {
  createContext,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { createPortal } from "react-dom";
import { type ModalKind, modalZIndex } from "~/lib/modal-keys";
import { Button, buttonClass } from "./button";
import { useModalFocus } from "./use-modal-focus";

const noSubscription = () => () => {};
/** False while hydrating (server markup), true afterwards: portals exist only in the browser. */
function useCanPortal() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export type ModalProps = {
  open: boolean;
  /** Escape, a backdrop click and the close button call this. */
  onClose: () => void;
  title: ReactNode;
  /** Rendered under the title and used as aria-describedby. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row under the content. */
  footer?: ReactNode;
  /** 'alertdialog' for confirmations and errors; 'dialog' otherwise. */
  role?: "dialog" | "alertdialog";
  /** Called on Enter when focus is not in a field or on a button (message modals: OK/confirm). */
  onEnter?: () => void;
  /** Element focused on open; default the first focusable element, else the dialog. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** False while something must not be interrupted (e.g. a booking being saved). */
  dismissible?: boolean;
  /** Show an × button in the header (off for the message modals, which have their own buttons). */
  showCloseButton?: boolean;
  size?: "sm" | "md" | "lg" | "xl";
  titleClassName?: string;
  /** Where the focus goes on close when nothing had it on open (see useModalFocus). */
  returnFocus?: () => HTMLElement | null;
};

const SIZES = { sm: "max-w-sm", md: "max-w-md", lg: "max-w-2xl", xl: "max-w-4xl" };

/**
 * The dialog shell of the modal system: backdrop, z-index from 50 (stacked modals go higher), focus
 * trapped inside and restored on close, Escape and backdrop click close (ignored while typing in a
 * field), `aria-modal`, labelled by its title. Features put their own content inside.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  role = "dialog",
  onEnter,
  initialFocusRef,
  dismissible = true,
  showCloseButton = true,
  size = "md",
  titleClassName = "",
  returnFocus,
}: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  // Latest onClose for the backdrop click (the hook keeps its own latest callbacks).
  const handlers = useRef({ onClose, dismissible });
  handlers.current = { onClose, dismissible };
  const depth = useModalFocus(open, dialogRef, {
    onCancel: onClose,
    onEnter,
    dismissible,
    initialFocusRef,
    returnFocus,
  });

  const canPortal = useCanPortal();
  if (!open) return null;
  const dialogTree = (
    <div
      className="fixed inset-0 flex items-end justify-center p-2 sm:items-center sm:p-4"
      style={{ zIndex: modalZIndex(depth) }}
    >
      {/* A click on the backdrop acts like Escape; the keyboard path is Escape itself. */}
      <div
        aria-hidden="true"
        data-modal-backdrop=""
        className="absolute inset-0 bg-slate-950/60 backdrop-blur-[1px]"
        onClick={() => {
          if (handlers.current.dismissible) handlers.current.onClose();
        }}
      />
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is dialog or alertdialog, both modal */}
      <div
        ref={dialogRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={`relative flex max-h-[calc(100dvh-1rem)] w-full ${SIZES[size]} flex-col overflow-hidden rounded-xl bg-white text-slate-900 shadow-xl outline-none ring-1 ring-slate-900/5 dark:bg-slate-900 dark:text-slate-100 dark:ring-white/10`}
      >
        <div className="flex items-start justify-between gap-4 px-5 pt-5">
          <h2 id={titleId} className={`text-lg font-semibold ${titleClassName}`}>
            {title}
          </h2>
          {showCloseButton && dismissible ? (
            <button
              type="button"
              onClick={onClose}
              aria-label="Schließen"
              className="-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
            >
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-5">
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          ) : null}
        </div>
        <div className="overflow-y-auto px-5 pb-5 pt-2">
          {description ? (
            <div id={descriptionId} className="text-sm text-slate-600 dark:text-slate-300">
              {description}
            </div>
          ) : null}
          {children}
        </div>
        {footer ? (
          <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-4 sm:flex-row sm:justify-end dark:border-slate-800">
            {footer}
          </div>
        ) : null}
      </div>
    </div>
  );
  // In a portal, no transformed or z-indexed ancestor can trap the fixed overlay.
  return canPortal ? createPortal(dialogTree, document.body) : dialogTree;
}

export const DEFAULT_TITLES: Record<ModalKind, string> = {
  success: "Erfolgreich",
  error: "Fehler",
  confirm: "Bestätigung",
  info: "Information",
};

export type ConfirmOptions = {
  message: string;
  title?: string;
  /** Label of the confirm button; default 'Bestätigen'. */
  confirmLabel?: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
};

export type ModalApi = {
  showSuccess(message: string, title?: string): Promise<void>;
  showError(message: string, title?: string): Promise<void>;
  showInfo(message: string, title?: string): Promise<void>;
  /** Resolves true on 'Bestätigen' (or Enter), false on 'Abbrechen', Escape or backdrop. */
  confirm(options: ConfirmOptions): Promise<boolean>;
};

type Entry = {
  id: number;
  kind: ModalKind;
  title: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
  resolve: (confirmed: boolean) => void;
};

const ModalContext = createContext<ModalApi | null>(null);

const TITLE_TONES: Record<ModalKind, string> = {
  success: "text-green-700 dark:text-green-400",
  error: "text-red-700 dark:text-red-400",
  confirm: "",
  info: "",
};

function MessageModal({ entry, settle }: { entry: Entry; settle: (ok: boolean) => void }) {
  const primaryRef = useRef<HTMLButtonElement>(null);
  const isConfirm = entry.kind === "confirm";
  return (
    <Modal
      open
      role={isConfirm || entry.kind === "error" ? "alertdialog" : "dialog"}
      title={entry.title}
      titleClassName={TITLE_TONES[entry.kind]}
      description={<p className="whitespace-pre-line">{entry.message}</p>}
      onClose={() => settle(false)}
      onEnter={() => settle(isConfirm)}
      initialFocusRef={primaryRef}
      showCloseButton={false}
      size="sm"
      footer={
        <>
          {isConfirm ? (
            <Button variant="secondary" onClick={() => settle(false)}>
              Abbrechen
            </Button>
          ) : null}
          <button
            ref={primaryRef}
            type="button"
            className={buttonClass(isConfirm && entry.danger ? "danger" : "primary")}
            onClick={() => settle(isConfirm)}
          >
            {isConfirm ? (entry.confirmLabel ?? "Bestätigen") : "OK"}
          </button>
        </>
      }
    />
  );
}

/** Holds the message modals of the app; `useModal()` opens them. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const nextId = useRef(0);

  const open = useCallback(
    (entry: Omit<Entry, "id" | "resolve">) =>
      new Promise<boolean>((resolve) => {
        const id = ++nextId.current;
        setEntries((list) => [...list, { ...entry, id, resolve }]);
      }),
    [],
  );
  const settle = useCallback((entry: Entry, ok: boolean) => {
    setEntries((list) => list.filter((e) => e.id !== entry.id));
    entry.resolve(ok);
  }, []);

  const api = useMemo<ModalApi>(() => {
    const message = (kind: ModalKind) => async (text: string, title?: string) => {
      await open({ kind, message: text, title: title ?? DEFAULT_TITLES[kind] });
    };
    return {
      showSuccess: message("success"),
      showError: message("error"),
      showInfo: message("info"),
      confirm: ({ message: text, title, confirmLabel, danger }) =>
        open({
          kind: "confirm",
          message: text,
          title: title ?? DEFAULT_TITLES.confirm,
          confirmLabel,
          danger,
        }),
    };
  }, [open]);

  return (
    <ModalContext.Provider value={api}>
      {children}
      {entries.map((entry) => (
        <MessageModal key={entry.id} entry={entry} settle={(ok) => settle(entry, ok)} />
      ))}
    </ModalContext.Provider>
  );
}

/** success/error/info messages and confirmations (spec: generic modal system). */
export function useModal(): ModalApi {
  const api = useContext(ModalContext);
  if (!api) throw new Error("useModal() needs a <ModalProvider> (root.tsx renders one)");
  return api;
}
