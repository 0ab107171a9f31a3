import { type ReactNode, useEffect, useRef } from "react";

/**
 * A small drop-down menu on <details>/<summary> (works without JavaScript); with JavaScript it
 * closes on a click outside and on Escape. Its looks are two classes in app.css (`menu-summary`,
 * `menu-panel`): every request row has two menus, so the long utility lists are not repeated in
 * the list's HTML (ADR 190).
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
      <summary className="menu-summary">{summary}</summary>
      <div className="menu-panel">{children}</div>
    </details>
  );
}
