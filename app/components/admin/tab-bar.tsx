import { useEffect, useRef } from "react";
import { NavLink, useLocation } from "react-router";
import { awaitingActivationText } from "~/lib/admin-users";
import { heldBadgeText } from "~/lib/held-requests";

/** The admin sections in the spec's order (§2: shared tab bar on admin pages). */
export const ADMIN_TABS = [
  { to: "/admin/dashboard", label: "Übersicht" },
  { to: "/admin/requests", label: "Anfragen" },
  { to: "/admin/appointments", label: "Termine" },
  { to: "/admin/users", label: "Benutzer" },
  { to: "/admin/affiliate-codes", label: "Affiliate Codes" },
  { to: "/admin/settings", label: "Einstellungen" },
  // The password change belongs to the account (linked from /admin/account, the spec's own page).
  { to: "/admin/account", label: "Account-Einstellungen", also: "/admin/change-password" },
] as const;

const under = (pathname: string, to: string) => pathname === to || pathname.startsWith(`${to}/`);

const base =
  "inline-flex shrink-0 items-center whitespace-nowrap border-b-2 px-3 py-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-500";
const idle =
  "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-300 dark:hover:border-slate-600 dark:hover:text-white";
const active = "border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300";

/**
 * Horizontal tab bar; scrolls sideways on narrow screens instead of wrapping. `only` limits it to
 * some tabs (while the first password change is pending, only that page is offered); `frame` is
 * the column class the header and the content share. `awaitingActivation` puts a badge on
 * "Benutzer", `held` (requests in the spam quarantine, ADR 327) one on "Anfragen"; a badge's text
 * is the link's description, so the link keeps its name.
 */
export function TabBar({
  only,
  frame = "px-4 sm:px-6",
  awaitingActivation = 0,
  held = 0,
}: {
  only?: string[];
  frame?: string;
  awaitingActivation?: number;
  held?: number;
}) {
  const badges: Record<string, { count: number; id: string; text: string; testId: string }> = {};
  if (awaitingActivation > 0)
    badges["/admin/users"] = {
      count: awaitingActivation,
      id: "awaiting-activation",
      text: awaitingActivationText(awaitingActivation),
      testId: "awaiting-activation-badge",
    };
  if (held > 0)
    badges["/admin/requests"] = {
      count: held,
      id: "held-requests",
      text: heldBadgeText(held),
      testId: "held-requests-badge",
    };
  const { pathname } = useLocation();
  const list = useRef<HTMLUListElement>(null);
  // On narrow screens the bar scrolls sideways: keep the current tab in view.
  const activeTab =
    pathname === "/admin" || pathname === "/admin/"
      ? "/admin/dashboard"
      : ADMIN_TABS.find((t) => under(pathname, t.to) || ("also" in t && under(pathname, t.also)))
          ?.to;
  useEffect(() => {
    const ul = list.current;
    const current = activeTab && ul?.querySelector<HTMLElement>(`a[href="${activeTab}"]`);
    if (!ul || !current) return;
    const left = current.offsetLeft - (ul.clientWidth - current.offsetWidth) / 2;
    ul.scrollTo({ left: Math.max(0, left) });
  }, [activeTab]);
  return (
    <nav aria-label="Admin-Bereiche" className="border-b border-slate-200 dark:border-slate-800">
      <ul ref={list} className={`relative -mb-px flex gap-1 overflow-x-auto ${frame}`}>
        {ADMIN_TABS.map((tab) => ({
          ...tab,
          // Limited to a tab's second page (the pending password change): the link goes there.
          href: only && "also" in tab && only.includes(tab.also) ? tab.also : tab.to,
        }))
          .filter((tab) => !only || only.includes(tab.href))
          .map((tab) => {
            const badge = badges[tab.to];
            return (
              <li key={tab.to} className="shrink-0">
                <NavLink
                  to={tab.href}
                  prefetch="intent"
                  aria-describedby={badge?.id}
                  className={({ isActive }) => {
                    const on =
                      isActive ||
                      tab.to === activeTab ||
                      (tab.to === "/admin/dashboard" &&
                        (pathname === "/admin" || pathname === "/admin/"));
                    return `${base} ${on ? active : idle}`;
                  }}
                >
                  {tab.label}
                  {badge ? (
                    <span
                      aria-hidden="true"
                      data-testid={badge.testId}
                      className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-600 px-1.5 text-xs font-bold leading-5 text-white dark:bg-amber-400 dark:text-slate-950"
                    >
                      {badge.count}
                    </span>
                  ) : null}
                </NavLink>
                {badge ? (
                  <span id={badge.id} hidden>
                    {badge.text}
                  </span>
                ) : null}
              </li>
            );
          })}
      </ul>
    </nav>
  );
}
