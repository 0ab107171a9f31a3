import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { Menu } from "~/components/ui/menu";
import { formatDateTime, formatRequestId } from "~/lib/format";
import type { RequestJson, RequestListItem } from "~/lib/request-json";
import { AssignmentSection } from "./assignment-section";
import { CopyButton } from "./copy-button";
import { type DetailContext, shareLink } from "./detail-context";
import { RowDetails } from "./row-details";
import { type RowDemo, RowGlance } from "./row-glance";
import { StatusBadge } from "./status-badge";
import { StatusForm } from "./status-form";

/**
 * One request in the admin list (spec §2): status dropdown, assignment, full-screen view and the
 * quick-actions menu right on the row; the expand button opens the detail tabs (loaded on demand,
 * RowDetails). Menus are <details>, so every control works without JavaScript.
 */
export function RequestRow({
  request,
  ctx,
  actionUrl,
  openHref,
  expanded,
  expandHref,
  collapseHref,
  demo = null,
  badge,
}: {
  request: RequestListItem;
  demo?: RowDemo | null;
  ctx: DetailContext;
  actionUrl: string;
  openHref: string;
  /** The full request when the server renders this row expanded (`?expand=`), else null. */
  expanded: RequestJson | null;
  expandHref: string;
  collapseHref: string;
  /** Extra badge beside the status (e.g. earlier requests of the same person). */
  badge?: React.ReactNode;
}) {
  const id = formatRequestId(request.id);
  const assignees = ctx.admins.filter((a) => request.assigned_to.includes(a.id));
  return (
    <li
      className="rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      id={`request-${request.id}`}
      data-testid="request-row"
      data-request-id={request.id}
    >
      <div className="flex flex-col gap-3 p-4 md:flex-row md:items-center">
        <div className="flex min-w-0 flex-1 items-start gap-3" data-row-part="info">
          <span className="font-mono text-sm text-slate-500 dark:text-slate-400">#{id}</span>
          <span className="min-w-0 flex-1">
            <span className="block font-semibold" data-request-name="">
              {request.name}
            </span>
            <span
              className="line-clamp-2 text-sm break-words text-slate-600 dark:text-slate-300"
              data-request-summary=""
            >
              {request.preview}
            </span>
            <RowGlance request={request} assignees={assignees.map((a) => a.username)} demo={demo} />
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-2 md:justify-end" data-row-part="meta">
          <StatusBadge status={request.status} />
          {badge}
          <span className="text-sm whitespace-nowrap text-slate-600 dark:text-slate-400">
            {formatDateTime(request.createdAt)}
          </span>
        </div>
      </div>
      <div
        className="flex flex-wrap items-center gap-2 border-t border-slate-100 px-4 py-3 dark:border-slate-800"
        data-row-part="controls"
      >
        <StatusForm request={request} />
        <Menu
          summary={
            <>
              {assignees.length
                ? `Zugewiesen: ${assignees.map((a) => a.username).join(", ")}`
                : "Zuweisen"}
              <span className="sr-only"> (Anfrage #{id})</span> <span aria-hidden="true">▾</span>
            </>
          }
        >
          <AssignmentSection request={request} ctx={ctx} labelPrefix="Zuweisung ändern" />
        </Menu>
        <Link
          to={openHref}
          data-fullscreen-link=""
          className={buttonClass("secondary", "sm")}
          aria-label={`Anfrage #${id} im Vollbild öffnen`}
        >
          Vollbild
        </Link>
        <Menu
          summary={
            <>
              Schnellaktionen<span className="sr-only"> für Anfrage #{id}</span>{" "}
              <span aria-hidden="true">▾</span>
            </>
          }
        >
          <ConfirmAction
            action={actionUrl}
            fields={{ intent: request.archived ? "restore" : "archive", id: String(request.id) }}
            title={request.archived ? "Anfrage wiederherstellen" : "Anfrage archivieren"}
            message={
              request.archived
                ? `Möchten Sie die Anfrage #${id} von ${request.name} wiederherstellen?`
                : `Möchten Sie die Anfrage #${id} von ${request.name} archivieren?`
            }
            label={request.archived ? "Wiederherstellen" : "Archivieren"}
            variant="secondary"
            size="sm"
          />
          <CopyButton
            text={shareLink(ctx.origin, request.id)}
            label="Link teilen"
            success="Link in die Zwischenablage kopiert!"
          />
        </Menu>
      </div>
      <RowDetails
        id={request.id}
        name={`${request.name} (Anfrage #${id})`}
        ctx={ctx}
        expanded={expanded}
        expandHref={expandHref}
        collapseHref={collapseHref}
      />
    </li>
  );
}
