import type { ReactNode } from "react";
import { Button } from "./button";
import { useHydrated } from "./use-hydrated";

/**
 * Beside a select that posts on change: with JS "Speichert …" while it posts, without JS the
 * submit button (`children` its text) that posts the form.
 */
export function AutoSaveStatus({ pending, children }: { pending: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  if (!hydrated)
    return (
      <Button type="submit" size="sm" variant="secondary">
        {children}
      </Button>
    );
  return pending ? (
    <span className="text-xs text-slate-500 dark:text-slate-400">Speichert …</span>
  ) : null;
}
