import { type ReactNode, useState } from "react";
import { Link, useFetcher } from "react-router";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { AdminRequestJson } from "~/lib/request-json";
import type { DetailContext } from "./detail-context";
import { RequestTabs } from "./request-detail";

type DetailsData = { request: AdminRequestJson | null; error?: string };

const toggleClass = "btn btn-sm btn-ghost whitespace-nowrap text-indigo-700 dark:text-indigo-300";

/**
 * The expand button of a list row and its detail tabs, rendered only for an expanded row (ADR 190):
 * the row puts the `toggle` among its controls and the `panel` under itself.
 * Without JS the button is a link: `expandHref` (`?expand={id}`) has the server render this row
 * expanded with `expanded`, `collapseHref` closes it again. With JS it expands in place and loads
 * the request from /admin/requests/{id}/details (revalidated after every action like the page).
 */
export function useRowDetails({
  id,
  name,
  ctx,
  expanded,
  expandHref,
  collapseHref,
}: {
  id: number;
  /** Customer name and formatted id for the button's accessible name. */
  name: string;
  ctx: DetailContext;
  /** The full request when the server rendered this row expanded (`?expand=`). */
  expanded: AdminRequestJson | null;
  expandHref: string;
  collapseHref: string;
}): { toggle: ReactNode; panel: ReactNode } {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(expanded !== null);
  const fetcher = useFetcher<DetailsData>();
  const isOpen = hydrated ? open : expanded !== null;
  const detail = expanded ?? fetcher.data?.request ?? null;
  const panelId = `request-${id}-details`;
  const label = (
    <>
      <span aria-hidden="true" className={isOpen ? "rotate-180" : undefined}>
        ▾
      </span>
      Details
      <span className="sr-only"> zu {name} ein- oder ausklappen</span>
    </>
  );
  return {
    toggle: hydrated ? (
      <button
        type="button"
        className={toggleClass}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          if (!open && !expanded && !fetcher.data && fetcher.state === "idle")
            fetcher.load(`/admin/requests/${id}/details`);
          setOpen(!open);
        }}
      >
        {label}
      </button>
    ) : (
      <Link
        to={isOpen ? collapseHref : expandHref}
        className={toggleClass}
        aria-expanded={isOpen}
        data-expand-link=""
      >
        {label}
      </Link>
    ),
    panel: isOpen ? (
      <div
        id={panelId}
        className="min-h-32 border-t border-slate-200 p-4 dark:border-slate-800"
        aria-busy={!detail && !fetcher.data}
      >
        {detail ? (
          <RequestTabs request={detail} ctx={ctx} />
        ) : fetcher.data ? (
          <p role="alert" className="text-sm text-red-800 dark:text-red-300">
            {fetcher.data.error ?? "Anfrage nicht gefunden."}
          </p>
        ) : (
          <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
            Details werden geladen …
          </p>
        )}
      </div>
    ) : null,
  };
}
