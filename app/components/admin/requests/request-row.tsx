import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { Menu } from "~/components/ui/menu";
import { formatDateTime, formatRequestId } from "~/lib/format";
import type { AdminRequestJson, RequestListItem } from "~/lib/request-json";
import { PromiseChips } from "../pipeline/promise-chips";
import { StageForm, useAskedReason } from "../pipeline/stage-form";
import { AssignmentSection } from "./assignment-section";
import { CopyButton } from "./copy-button";
import { type DetailContext, shareLink } from "./detail-context";
import { useRowDetails } from "./row-details";
import { type RowDemo, RowGlance, RowOrigin } from "./row-glance";
import { StatusBadge } from "./status-badge";
import { StatusForm } from "./status-form";

/**
 * One request in the admin list (spec §2): status dropdown, assignment, full-screen view and the
 * quick-actions menu right on the row; the expand button opens the detail tabs (loaded on demand,
 * useRowDetails). Menus are <details>, so every control works without JavaScript.
 *
 * Dense (ADR 236): from 1024 px a row is at most ~80 px high — name, company, summary and the
 * facts (source, code, attachments, assignees, demo) on the left, status, earlier requests, open
 * promises, date and the controls on the right. `compact` leaves out the summary, the glance icons and the row
 * controls but the full-screen link and the details: one line per request.
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
  actions,
  compact = false,
  stageAnswers = true,
}: {
  request: RequestListItem;
  demo?: RowDemo | null;
  ctx: DetailContext;
  actionUrl: string;
  openHref: string;
  /** The full request when the server renders this row expanded (`?expand=`), else null. */
  expanded: AdminRequestJson | null;
  expandHref: string;
  collapseHref: string;
  /** Extra badge beside the status (e.g. earlier requests of the same person). */
  badge?: React.ReactNode;
  /** Extra controls first in the row (e.g. "Freigeben" and "Löschen" of a quarantined request). */
  actions?: React.ReactNode;
  compact?: boolean;
  /**
   * The row shows the page's answer to a stage move without JS (the reason step); false while the
   * full-screen view is open, which shows it itself.
   */
  stageAnswers?: boolean;
}) {
  const id = formatRequestId(request.id);
  // While the page asks for this request's move reason, its reason step holds the anchor.
  const asked = useAskedReason();
  const assignees = ctx.admins.filter((a) => request.assigned_to.includes(a.id));
  const details = useRowDetails({
    id: request.id,
    name: `${request.name} (Anfrage #${id})`,
    ctx,
    expanded,
    expandHref,
    collapseHref,
  });
  const fullScreen = (
    <Link
      to={openHref}
      data-fullscreen-link=""
      className={buttonClass("secondary", "sm")}
      aria-label={`Anfrage #${id} im Vollbild öffnen`}
    >
      Vollbild
    </Link>
  );
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      id={asked?.id === request.id ? undefined : `request-${request.id}`}
      data-testid="request-row"
      data-request-id={request.id}
    >
      <div
        className={`flex flex-col gap-2 px-3 lg:flex-row lg:items-center lg:gap-4 ${compact ? "py-1.5" : "py-2"}`}
      >
        <div className="min-w-0 flex-1" data-row-part="info">
          <p className="flex min-w-0 flex-wrap items-baseline gap-x-2 lg:flex-nowrap">
            <span className="shrink-0 font-mono text-xs text-slate-500 dark:text-slate-400">
              #{id}
            </span>
            <span
              className="max-w-full min-w-0 truncate font-semibold lg:shrink-0"
              data-request-name=""
            >
              {request.name}
            </span>
            {request.company ? (
              <span
                className="min-w-0 truncate text-sm text-slate-600 dark:text-slate-300"
                data-request-company=""
              >
                {request.company}
              </span>
            ) : null}
          </p>
          {compact ? null : (
            <p
              className="line-clamp-2 text-sm break-words text-slate-600 lg:line-clamp-1 dark:text-slate-300"
              data-request-summary=""
            >
              {request.preview}
            </p>
          )}
          {/* One line from 1024 px (long values are cut, the full ones are in the details). */}
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 lg:flex-nowrap dark:text-slate-300">
            <RowOrigin request={request} />
            {compact ? null : (
              <RowGlance
                request={request}
                assignees={assignees.map((a) => a.username)}
                demo={demo}
              />
            )}
          </div>
        </div>
        <div
          className={`flex gap-x-3 gap-y-1.5 ${compact ? "flex-wrap items-center lg:shrink-0 lg:flex-nowrap" : "flex-col lg:items-end"}`}
        >
          {/* Compact rows stay one line from 1024 px: the right side keeps its width, the name and
              origin on the left are cut instead (a long "n frühere Anfragen" badge wrapped them). */}
          <div
            className={`flex flex-wrap items-center gap-2 lg:justify-end ${compact ? "lg:flex-nowrap" : ""}`}
            data-row-part="meta"
          >
            <StatusBadge status={request.status} />
            {badge}
            {/* The open promises (ADR 346) beside the status: chips of the badges' height, so
                the row keeps its lines (a line of their own made it taller than 80 px). */}
            {request.archived ? null : (
              <PromiseChips
                promises={request.promises}
                open={request.status !== "Done"}
                now={ctx.now}
                inline
              />
            )}
            <span className="text-sm whitespace-nowrap text-slate-600 dark:text-slate-400">
              {formatDateTime(request.createdAt)}
            </span>
          </div>
          <div
            className="flex flex-wrap items-center gap-2 lg:justify-end"
            data-row-part="controls"
          >
            {actions}
            {compact ? null : (
              <>
                {/* Status and stage share one line on a phone while both fit whole, else the
                    stage takes a line of its own (a select never cuts its value off, ADR 359). */}
                <div className="flex w-full flex-wrap gap-2 lg:w-auto lg:flex-nowrap">
                  <StatusForm request={request} compact />
                  <StageForm
                    request={request}
                    pipeline={ctx.pipeline}
                    pageAnswers={stageAnswers}
                    compact
                  />
                </div>
                <Menu
                  summary={
                    <>
                      {assignees.length
                        ? `Zugewiesen: ${assignees.map((a) => a.username).join(", ")}`
                        : "Zuweisen"}
                      <span className="sr-only"> (Anfrage #{id})</span>{" "}
                      <span aria-hidden="true">▾</span>
                    </>
                  }
                >
                  <AssignmentSection request={request} ctx={ctx} labelPrefix="Zuweisung ändern" />
                </Menu>
              </>
            )}
            {fullScreen}
            {compact ? null : (
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
                  fields={{
                    intent: request.archived ? "restore" : "archive",
                    id: String(request.id),
                  }}
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
            )}
            {details.toggle}
          </div>
        </div>
      </div>
      {details.panel}
    </li>
  );
}
