import { Form, Link, useSubmit } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { BoardCard, BoardColumn } from "~/components/admin/pipeline/board-column";
import { ReasonStep, useAskedReason } from "~/components/admin/pipeline/stage-form";
import { useBoardMoves } from "~/components/admin/pipeline/use-board-moves";
import { ViewSwitch } from "~/components/admin/pipeline/view-switch";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import { BOARD_PATH, boardSearch, parseBoardQuery } from "~/lib/board";
import { formatRequestId } from "~/lib/format";
import type { RequestListItem } from "~/lib/request-json";
import { listAdmins } from "~/server/accounts/admins.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { boardView } from "~/server/pipeline/board.server";
import { pipeline } from "~/server/pipeline/config.server";
import type { Route } from "./+types/board";
import { handleRequestAction } from "./requests.server";

export const meta: Route.MetaFunction = () => [{ title: "Anfragen – Board" }];

/**
 * The pipeline as a board (ADR 347): a column per stage with its count and its newest cards,
 * without archived and held requests; "mine" or one admin's requests. Moves post the requests
 * page's "stage" intent (the same rule as the list, the full-screen view and the API).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = parseBoardQuery(new URL(request.url).searchParams);
  const board = boardView(query.assignee === "me" ? admin.id : query.assignee);
  const { stages, lostReasons } = pipeline();
  return {
    query,
    board,
    pipeline: { stages, lostReasons },
    admins: listAdmins().map((a) => ({ id: a.id, username: a.username, active: a.is_active })),
    now: new Date().toISOString(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return handleRequestAction(request, admin);
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function BoardPage({ loaderData }: Route.ComponentProps) {
  const { query, board, pipeline, admins, now } = loaderData;
  const hydrated = useHydrated();
  const submit = useSubmit();
  const byId = new Map(board.columns.flatMap((c) => c.items.map((item) => [item.id, item])));
  const moves = useBoardMoves(pipeline.stages, (id) => byId.get(id)?.name ?? "");
  const usernames = new Map(admins.map((a) => [a.id, a.username]));
  // While a move is saved, its card is shown in its new column already.
  const columns = board.columns.map((column) => {
    const pending = moves.pending;
    let items: RequestListItem[] = column.items;
    let count = column.count;
    if (pending && byId.has(pending.id)) {
      const card = byId.get(pending.id) as RequestListItem;
      const here = column.items.some((i) => i.id === pending.id);
      if (here && column.stage.id !== pending.stage) {
        items = items.filter((i) => i.id !== pending.id);
        count -= 1;
      } else if (!here && column.stage.id === pending.stage) {
        items = [{ ...card, stage: pending.stage }, ...items];
        count += 1;
      }
    }
    return { ...column, items, count };
  });
  const assigneeValue = query.assignee === null ? "" : String(query.assignee);
  // Without JS a move to a stage that asks for a reason comes back here: the reason step.
  const asked = useAskedReason();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ViewSwitch current="board" />
        <Form
          method="get"
          action={BOARD_PATH}
          className="flex flex-wrap items-end gap-2"
          onChange={(event) => {
            if (hydrated) submit(event.currentTarget);
          }}
        >
          <div>
            <label htmlFor="board-assignee" className="mb-1 block text-sm font-medium">
              Zuständig
            </label>
            <select
              id="board-assignee"
              name="assignee"
              defaultValue={assigneeValue}
              key={assigneeValue}
              className={`${inputClass} w-auto py-1 text-sm`}
            >
              <option value="">Alle</option>
              <option value="me">Mir zugewiesen</option>
              {admins
                .filter((a) => a.active)
                .map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.username}
                  </option>
                ))}
            </select>
          </div>
          {hydrated ? null : (
            <button type="submit" className={buttonClass("secondary", "sm")}>
              Filter anwenden
            </button>
          )}
        </Form>
      </div>
      <h1 className="text-2xl font-bold">
        Pipeline <span className="text-slate-500 dark:text-slate-400">({board.total})</span>
      </h1>
      <p id="board-help" className="text-sm text-slate-600 dark:text-slate-300">
        {hydrated
          ? "Karten mit der Maus ziehen, oder den Griff ⠿ fokussieren: Leertaste nimmt die Karte auf, Pfeiltasten wählen die Phase, Leertaste legt ab, Escape bricht ab. "
          : ""}
        „Phase ändern“ auf jeder Karte verschiebt sie auch ohne Ziehen. Archivierte und zur
        Spamprüfung zurückgehaltene Anfragen stehen nicht auf dem Board.
      </p>
      <nav aria-label="Phasen" className="-mx-1 overflow-x-auto px-1">
        <ul className="flex gap-2 whitespace-nowrap text-sm">
          {columns.map((column) => (
            <li key={column.stage.id}>
              <a
                href={`${boardSearch(query) || "?"}#phase-${column.stage.id}`}
                className="inline-block rounded-full bg-slate-100 px-3 py-1 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
              >
                {column.stage.name} ({column.count})
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {asked ? (
        <section aria-labelledby="board-reason-title" className="max-w-md space-y-2">
          <h2 id="board-reason-title" className="font-semibold">
            Anfrage #{formatRequestId(asked.id)} verschieben
          </h2>
          <ReasonStep
            id={asked.id}
            stage={pipeline.stages.find((s) => s.id === asked.stage)}
            reasons={pipeline.lostReasons}
            error={asked.error}
            anchored
          />
        </section>
      ) : null}
      <p aria-live="polite" className="sr-only" data-board-status="">
        {moves.announcement}
      </p>
      <div
        className="-mx-4 flex snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0"
        data-board=""
      >
        {columns.map((column, index) => (
          <BoardColumn
            key={column.stage.id}
            stage={column.stage}
            count={column.count}
            items={column.items}
            highlighted={
              moves.over === column.stage.id ||
              (moves.lifted !== null && moves.lifted.target === index)
            }
            drop={hydrated ? moves.dropProps(column.stage) : undefined}
          >
            {column.items.map((item) => (
              <BoardCard
                key={item.id}
                item={item}
                column={index}
                pipeline={pipeline}
                assignees={item.assigned_to.flatMap((a) => usernames.get(a) ?? [])}
                now={now}
                open={column.stage.status !== "Done"}
                lifted={moves.lifted?.id === item.id}
                pending={moves.pending?.id === item.id}
                anchored={asked?.id !== item.id}
                handle={
                  hydrated
                    ? { drag: moves.dragProps(item.id), onKeyDown: moves.onHandleKeyDown }
                    : null
                }
              />
            ))}
          </BoardColumn>
        ))}
      </div>
      {moves.reasonDialog(pipeline.lostReasons)}
      <p className="text-sm">
        <Link to="/admin/requests" className="text-indigo-700 underline dark:text-indigo-300">
          Zur Liste aller Anfragen
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Requests" />;
}
