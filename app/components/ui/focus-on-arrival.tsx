import { type ReactNode, useEffect, useRef } from "react";

/**
 * Wraps what a form post just brought (a status message, the next step) and moves the focus there:
 * without JavaScript through the `autofocus` attribute of the new page, with JavaScript whenever
 * `arrival` changes (the action's answer: a new object per post). `arrival` undefined: no focus.
 */
export function FocusOnArrival({
  arrival,
  className = "",
  children,
}: {
  arrival: unknown;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const focus = arrival !== undefined && arrival !== null && arrival !== false;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `arrival` is the trigger (each answer anew)
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus, arrival]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      autoFocus={focus}
      className={`scroll-mt-24 focus:outline-none ${className}`.trim()}
    >
      {children}
    </div>
  );
}
