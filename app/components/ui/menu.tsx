import { type ReactNode, useEffect, useRef } from "react";

const summaryClass =
  "cursor-pointer list-none whitespace-nowrap rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden";
const panelClass =
  "absolute left-0 z-20 mt-1 w-64 max-w-[calc(100vw-2rem)] space-y-2 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900";

/**
 * A small drop-down menu on <details>/<summary> (works without JavaScript); with JavaScript it
 * closes on a click outside and on Escape.
 */
export function Menu({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        details.open = false;
        details.querySelector("summary")?.focus();
        return;
      }
      if (!details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={ref} className="relative">
      <summary className={summaryClass}>{summary}</summary>
      <div className={panelClass}>{children}</div>
    </details>
  );
}
