import { Button } from "./button";
import { CheckIcon } from "./icons";
import { useHydrated } from "./use-hydrated";

/**
 * Beside a select that posts on change: with JS "Speichert …" while it posts, without JS the
 * submit button (`children` its text) that posts the form — on a list row (`compact`) a check mark
 * named by that text.
 */
export function AutoSaveStatus({
  pending,
  compact = false,
  children,
}: {
  pending: boolean;
  compact?: boolean;
  children: string;
}) {
  const hydrated = useHydrated();
  if (!hydrated)
    return compact ? (
      <Button type="submit" size="sm" variant="secondary" aria-label={children} title={children}>
        <CheckIcon size={16} />
      </Button>
    ) : (
      <Button type="submit" size="sm" variant="secondary">
        {children}
      </Button>
    );
  return pending ? (
    <span className="text-xs text-slate-500 dark:text-slate-400">Speichert …</span>
  ) : null;
}
