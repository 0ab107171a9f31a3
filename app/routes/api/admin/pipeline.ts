import { parseBoardQuery } from "~/lib/board";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { boardView } from "~/server/pipeline/board.server";
import { pipeline } from "~/server/pipeline/config.server";

/**
 * GET /api/admin/pipeline[?assignee=me|<admin id>] → the board (ADR 347): the stages in order,
 * each with its count and its newest cards (the list rows' shape), without archived and held
 * requests; the reasons of "Verloren".
 */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Pipeline", scope: "requests:read" },
  ({ request, admin }) => {
    const query = parseBoardQuery(new URL(request.url).searchParams);
    const board = boardView(query.assignee === "me" ? admin.id : query.assignee);
    return noStoreJson({
      stages: board.columns.map((column) => ({
        ...column.stage,
        count: column.count,
        requests: column.items,
      })),
      total: board.total,
      lostReasons: pipeline().lostReasons,
    });
  },
);
