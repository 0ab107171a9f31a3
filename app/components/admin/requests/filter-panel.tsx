import type { ReactNode } from "react";
import { Form, useSubmit } from "react-router";

/**
 * The list's filter form (GET, so every filter lives in the URL). On narrow screens it is collapsed
 * behind one "Filter" button (`<details>`, no JS needed); from 640 px on it is always open (CSS in
 * app.css, `.filter-panel`). With JavaScript a changed drop-down applies at once; the search field
 * and the submit button (`actions`) work the same with and without JS. New filters are just more
 * children.
 */
export function FilterPanel({
  activeCount,
  children,
  actions,
  className,
}: {
  activeCount: number;
  children: ReactNode;
  actions: ReactNode;
  className: string;
}) {
  const submit = useSubmit();
  return (
    <details className="filter-panel rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-4 py-3 text-sm font-semibold [&::-webkit-details-marker]:hidden">
        <span>
          Filter
          {activeCount ? (
            <span className="ml-2 rounded-full bg-indigo-100 px-2 py-0.5 text-xs text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
              {activeCount} aktiv
            </span>
          ) : null}
        </span>
        <span aria-hidden="true" className="filter-panel-chevron">
          ▾
        </span>
      </summary>
      <Form
        method="get"
        role="search"
        className={className}
        onChange={(event) => {
          if (event.target instanceof HTMLSelectElement)
            submit(event.currentTarget, { replace: true, preventScrollReset: true });
        }}
      >
        {children}
        {actions}
      </Form>
    </details>
  );
}
