import { type KeyboardEvent, type MouseEvent, type ReactNode, useState } from "react";
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
 * Without JS the control is a link: `expandHref` (`?expand={id}`) has the server render this row
 * expanded with `expanded`, `collapseHref` closes it again. With JS the same element becomes a
 * button (`role="button"`) that expands in place and loads the request from
 * /admin/requests/{id}/details (revalidated after every action like the page). It stays one element
 * through hydration, so a click pressed on the link and released on the hydrated button is not lost
 * (a separate `<button>` replaced the link under the pointer); a navigation to or away from
 * `?expand=` (the browser's back button) opens or closes the row as the server would.
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
  const serverOpen = expanded !== null;
  const [open, setOpen] = useState(serverOpen);
  // React's "adjust state on a prop change": only a change of the server's answer overrides the
  // admin's own toggling.
  const [lastServerOpen, setLastServerOpen] = useState(serverOpen);
  if (lastServerOpen !== serverOpen) {
    setLastServerOpen(serverOpen);
    setOpen(serverOpen);
  }
  const fetcher = useFetcher<DetailsData>();
  const isOpen = hydrated ? open : serverOpen;
  const detail = expanded ?? fetcher.data?.request ?? null;
  const panelId = `request-${id}-details`;
  const toggle = () => {
    if (!open && !expanded && !fetcher.data && fetcher.state === "idle")
      fetcher.load(`/admin/requests/${id}/details`);
    setOpen(!open);
  };
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
    toggle: (
      <Link
        // With JS a modified click (a new tab or window) follows the link: the row expanded there.
        to={isOpen && !hydrated ? collapseHref : expandHref}
        className={toggleClass}
        aria-expanded={isOpen}
        // A press that moves a little stays a click, as on a button (a link would start a drag).
        draggable={false}
        {...(hydrated
          ? {
              role: "button",
              "aria-controls": panelId,
              onClick: (event: MouseEvent<HTMLAnchorElement>) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                event.preventDefault();
                toggle();
              },
              // A button also answers the space bar, once, on its release (Enter clicks the link
              // itself); the press must not scroll the page.
              onKeyDown: (event: KeyboardEvent<HTMLAnchorElement>) => {
                if (event.key === " ") event.preventDefault();
              },
              onKeyUp: (event: KeyboardEvent<HTMLAnchorElement>) => {
                if (event.key !== " ") return;
                event.preventDefault();
                toggle();
              },
            }
          : {})}
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
