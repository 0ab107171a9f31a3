import type { DragEvent, KeyboardEvent } from "react";
import { Link } from "react-router";
import { Menu } from "~/components/ui/menu";
import { cardAge } from "~/lib/board";
import { formatRequestId } from "~/lib/format";
import { STAGE_STATUS_LABELS, type Stage } from "~/lib/pipeline";
import type { RequestListItem } from "~/lib/request-json";
import { PromiseChips } from "./promise-chips";
import { type PipelineView, StageForm } from "./stage-form";

type DropProps = {
  onDragOver: (event: DragEvent) => void;
  onDragLeave: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
};

/**
 * One column of the board (ADR 347): the stage's name, its status and its count, its newest cards
 * and a link to all of them in the list. With JS it is a drop target.
 */
export function BoardColumn({
  stage,
  count,
  items,
  highlighted,
  drop,
  children,
}: {
  stage: Stage;
  count: number;
  items: RequestListItem[];
  /** A card is dragged over it, or the keyboard's pick points at it. */
  highlighted: boolean;
  drop?: DropProps;
  children: React.ReactNode;
}) {
  const titleId = `phase-${stage.id}-title`;
  return (
    <section
      id={`phase-${stage.id}`}
      aria-labelledby={titleId}
      data-stage-column={stage.id}
      className={`flex w-[min(18rem,calc(100vw-3rem))] shrink-0 snap-start flex-col gap-2 rounded-xl border p-2 scroll-mt-24 ${highlighted ? "border-indigo-500 bg-indigo-50 ring-2 ring-indigo-500 dark:bg-indigo-950/50" : "border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-900/60"}`}
      {...drop}
    >
      <header className="flex items-baseline justify-between gap-2 px-1">
        <h2 id={titleId} className="font-semibold">
          {stage.name}{" "}
          <span className="text-slate-600 dark:text-slate-300" data-stage-count="">
            ({count})
          </span>
        </h2>
        <span className="text-xs text-slate-600 dark:text-slate-400">
          {STAGE_STATUS_LABELS[stage.status]}
        </span>
      </header>
      {items.length ? (
        <ul className="flex flex-col gap-2" aria-label={`Anfragen in „${stage.name}“`}>
          {children}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
          Keine Anfragen
        </p>
      )}
      {count > items.length ? (
        <Link
          to={`/admin/requests?stage=${encodeURIComponent(stage.id)}`}
          className="px-1 text-sm font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          Alle {count} in der Liste anzeigen
        </Link>
      ) : null}
    </section>
  );
}

/**
 * A card: name (to the full-screen view), the first 60 characters of the company description,
 * age, the open promises, the assignees, and "Phase ändern" (a select, with and without JS). With
 * JS the handle drags it and moves it by keyboard.
 */
export function BoardCard({
  item,
  column,
  pipeline,
  assignees,
  now,
  open,
  lifted,
  pending,
  handle,
  anchored = true,
}: {
  item: RequestListItem;
  column: number;
  pipeline: PipelineView;
  assignees: string[];
  now: string;
  /** The stage is not one of "Done": the promises still count. */
  open: boolean;
  /** Picked up by the keyboard. */
  lifted: boolean;
  /** Its move is being saved. */
  pending: boolean;
  /**
   * It carries the anchor a move without JS comes back to (#request-N). Not while the page asks
   * for its move's reason: then the reason step's select carries it (useAskedReason).
   */
  anchored?: boolean;
  /** With JS: the drag handle's events; null without JS. */
  handle: {
    drag: Record<string, unknown>;
    onKeyDown: (event: KeyboardEvent<HTMLElement>, id: number, column: number) => void;
  } | null;
}) {
  const id = formatRequestId(item.id);
  return (
    <li
      // The anchor a move without JS comes back to (the list's rows have the same one).
      id={anchored ? `request-${item.id}` : undefined}
      data-card={item.id}
      className={`scroll-mt-24 rounded-lg border bg-white p-3 text-sm shadow-sm dark:bg-slate-900 ${lifted ? "border-indigo-500 ring-2 ring-indigo-500" : "border-slate-200 dark:border-slate-700"} ${pending ? "opacity-70" : ""}`}
      {...(handle?.drag ?? {})}
    >
      <div className="flex items-start justify-between gap-2">
        <Link
          to={`/admin/requests?requestId=${item.id}`}
          className="min-w-0 font-semibold break-words text-slate-900 hover:underline dark:text-slate-100"
          data-card-name=""
        >
          {item.name}
        </Link>
        {handle ? (
          <button
            type="button"
            data-drag-handle=""
            aria-label={`Anfrage #${id} von ${item.name} verschieben`}
            aria-describedby="board-help"
            aria-pressed={lifted}
            onKeyDown={(event) => handle.onKeyDown(event, item.id, column)}
            className="shrink-0 cursor-grab rounded px-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            <span aria-hidden="true">⠿</span>
          </button>
        ) : null}
      </div>
      {item.company ? (
        <p className="mt-1 break-words text-slate-700 dark:text-slate-300" data-card-company="">
          {item.company}
        </p>
      ) : null}
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        #{id} · {cardAge(item.createdAt, new Date(now))}
      </p>
      <div className="mt-2 flex flex-col gap-1">
        <PromiseChips promises={item.promises} open={open} now={now} />
        {assignees.length ? (
          <p className="text-xs text-slate-600 dark:text-slate-400" data-card-assignees="">
            Zuständig: {assignees.join(", ")}
          </p>
        ) : null}
      </div>
      <div className="mt-2">
        <Menu
          summary={
            <>
              Phase ändern<span className="sr-only"> (Anfrage #{id})</span>{" "}
              <span aria-hidden="true">▾</span>
            </>
          }
        >
          <StageForm
            request={item}
            pipeline={pipeline}
            label={`Neue Phase für Anfrage #${id}`}
            pageAnswers={false}
          />
        </Menu>
      </div>
    </li>
  );
}
