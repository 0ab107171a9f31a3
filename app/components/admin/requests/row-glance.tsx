import type { ReactNode } from "react";
import { CalendarIcon, MicIcon, PaperclipIcon, PeopleIcon } from "~/components/ui/icons";
import { SLOT_GONE } from "~/lib/appointment-status";
import { formatDateTime } from "~/lib/format";
import type { RequestListItem } from "~/lib/request-json";

/**
 * A request's booked (not cancelled) demo, as the list shows it; `gone`: the demo booked while the
 * request was held, whose slot was taken before its release (ADR 355).
 */
export type RowDemo = { start: string; title: string; gone?: boolean };

function Item({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <li className="inline-flex min-w-0 items-center gap-1" title={label}>
      {icon}
      <span aria-hidden="true" className="truncate">
        {children}
      </span>
      <span className="sr-only">{label}</span>
    </li>
  );
}

/**
 * What a request row shows at a glance (ADR 116): attachments, a voice message, the assigned
 * admins and a booked demo, each as a small icon with a count or name and its own accessible text.
 */
export function RowGlance({
  request,
  assignees,
  demo,
}: {
  request: Pick<RequestListItem, "files" | "hasAudio">;
  assignees: string[];
  demo: RowDemo | null;
}) {
  const files = request.files;
  if (!files && !request.hasAudio && !assignees.length && !demo) return null;
  return (
    <ul
      className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 lg:flex-nowrap"
      aria-label="Auf einen Blick"
      data-row-glance=""
    >
      {files ? (
        <Item
          icon={<PaperclipIcon size={14} />}
          label={files === 1 ? "1 Anhang" : `${files} Anhänge`}
        >
          {files}
        </Item>
      ) : null}
      {request.hasAudio ? (
        <Item icon={<MicIcon size={14} />} label="Sprachnachricht">
          Audio
        </Item>
      ) : null}
      {assignees.length ? (
        <Item icon={<PeopleIcon size={14} />} label={`Zugewiesen an ${assignees.join(", ")}`}>
          {assignees.join(", ")}
        </Item>
      ) : null}
      {demo?.gone ? (
        <li
          className="inline-flex min-w-0 items-center gap-1 rounded bg-amber-100 px-1.5 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-slot-gone=""
        >
          <CalendarIcon size={14} />
          <span className="truncate">
            {SLOT_GONE}
            <span className="sr-only">
              {" "}
              (gewählt war {formatDateTime(demo.start)} Uhr; die Eingangsbestätigung bietet einen
              neuen Termin an)
            </span>
          </span>
        </li>
      ) : demo ? (
        <Item
          icon={<CalendarIcon size={14} />}
          label={`Demo-Termin gebucht: ${formatDateTime(demo.start)}`}
        >
          Demo {formatDateTime(demo.start)}
        </Item>
      ) : null}
    </ul>
  );
}

/**
 * Where a lead came from, on its row (ADR 236): the source (utm_source or the referrer's host) and
 * the affiliate code with its partner and discount.
 */
export function RowOrigin({ request }: { request: Pick<RequestListItem, "source" | "code"> }) {
  const { source, code } = request;
  return (
    <>
      {source ? (
        <span className="max-w-48 min-w-0 truncate" data-request-source="">
          Quelle: <span className="font-medium">{source}</span>
        </span>
      ) : null}
      {code ? (
        <span className="min-w-0 truncate" data-request-code="">
          Code <span className="font-mono font-semibold">{code.code}</span>
          {code.partner ? ` · ${code.partner}` : ""}
          {code.discount !== null ? ` · ${code.discount} % Rabatt` : ""}
        </span>
      ) : null}
    </>
  );
}
