import { useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { useToast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * Copies text to the clipboard (JS) with the spec's toasts; without JS the text is shown in a
 * read-only field to select and copy by hand.
 */
export function CopyButton({
  text,
  label,
  success,
  failure = "Fehler beim Kopieren!",
}: {
  text: string;
  label: string;
  success: string;
  failure?: string;
}) {
  const hydrated = useHydrated();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  if (!hydrated) {
    return (
      <label className="block min-w-0 text-xs text-slate-500 dark:text-slate-400">
        {label}
        <input readOnly value={text} className={`${inputClass} mt-1 text-xs`} />
      </label>
    );
  }
  return (
    <button
      type="button"
      className={buttonClass("secondary", "sm")}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await navigator.clipboard.writeText(text);
          toast.success(success);
        } catch {
          toast.error(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </button>
  );
}
