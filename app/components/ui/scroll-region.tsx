import type { ReactNode } from "react";

/**
 * A region that may scroll sideways (a wide table on a phone): focusable and named, so a keyboard can
 * scroll it too (axe `scrollable-region-focusable`).
 */
export function ScrollRegion({
  label,
  className = "",
  children,
}: {
  /** The accessible name of the region (German). */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named scroll container, not a document section.
    <div
      className={`focus-visible:outline-2 focus-visible:outline-indigo-500 ${className}`.trim()}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must be reachable by keyboard.
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}
