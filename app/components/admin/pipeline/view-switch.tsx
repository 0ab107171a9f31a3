import { Link } from "react-router";
import { BOARD_PATH } from "~/lib/board";

/**
 * "Liste | Board" beside the list's tabs (ADR 347): the same requests as rows or as the pipeline's
 * columns. The spec's tab bar stays as it is; both views are under "Anfragen".
 */
export function ViewSwitch({ current }: { current: "list" | "board" }) {
  const item = (view: "list" | "board", to: string, label: string) => (
    <Link
      to={to}
      aria-current={current === view ? "page" : undefined}
      className={`px-3 py-1.5 text-sm font-medium ${current === view ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"}`}
    >
      {label}
    </Link>
  );
  return (
    <nav
      aria-label="Darstellung"
      className="inline-flex overflow-hidden rounded-lg border border-slate-300 dark:border-slate-700"
      data-view-switch=""
    >
      {item("list", "/admin/requests", "Liste")}
      <span aria-hidden="true" className="w-px bg-slate-300 dark:bg-slate-700" />
      {item("board", BOARD_PATH, "Board")}
    </nav>
  );
}
