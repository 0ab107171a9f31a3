import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { firstStageOf, type Stage } from "~/lib/pipeline";
import type { RequestListItem } from "~/lib/request-json";
import { REQUEST_STATUSES, type RequestStatus } from "~/lib/request-status";
import { requestAssignees, requestStageCounts, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { loadRequestListItems } from "../requests/list-items.server";
import { notQuarantined } from "../requests/quarantine.server";
import { pipeline } from "./config.server";

/**
 * The board (ADR 347): one column per stage with its count and its newest cards. Only requests
 * that are neither archived nor held. The counts come from `request_stage_counts` (kept by
 * triggers, one row per stage and bucket: every request, or one admin's), the cards from
 * `requests_stage_idx` (archived, stage, created_at) — a column costs an index range of at most
 * BOARD_CARDS rows, whatever the size of the table.
 */
export const BOARD_CARDS = 20;

export type BoardColumn = {
  stage: Stage;
  count: number;
  items: RequestListItem[];
};

export type BoardView = { columns: BoardColumn[]; total: number };

/** Requests assigned to `adminId` ("mine", or the assignee filter). */
const assignedTo = (adminId: number) =>
  sql`${requests.id} IN (SELECT ${requestAssignees.requestId} FROM ${requestAssignees} WHERE ${requestAssignees.adminId} = ${adminId})`;

/**
 * The board, optionally only the requests assigned to one admin. A stage that is no longer
 * configured (a restored database) shows its requests in the first stage of their status.
 */
export function boardView(assignee: number | null = null, cards = BOARD_CARDS): BoardView {
  const p = pipeline();
  const counts = db()
    .select({ stage: requestStageCounts.stage, n: requestStageCounts.n })
    .from(requestStageCounts)
    .where(eq(requestStageCounts.bucket, assignee ?? 0))
    .all();
  const known = new Set(p.stages.map((s) => s.id));
  const count = new Map(counts.map((c) => [c.stage, c.n]));
  // Unknown stages with requests: counted (and listed) by status in that status's first stage.
  const orphans = counts.filter((c) => c.n > 0 && !known.has(c.stage)).map((c) => c.stage);
  const orphansOf = new Map<string, RequestStatus[]>();
  if (orphans.length) {
    const rows = db()
      .select({ stage: requests.stage, status: requests.status, n: sql<number>`count(*)` })
      .from(requests)
      .where(
        and(
          eq(requests.archived, false),
          inArray(requests.stage, orphans),
          notQuarantined(),
          assignee ? assignedTo(assignee) : undefined,
        ),
      )
      .groupBy(requests.stage, requests.status)
      .all();
    for (const row of rows) {
      const home = firstStageOf(p, row.status).id;
      count.set(home, (count.get(home) ?? 0) + Number(row.n));
      orphansOf.set(home, [...(orphansOf.get(home) ?? []), row.status]);
    }
  }
  const idsOf = p.stages.map((stage) => {
    const here: SQL[] = [eq(requests.stage, stage.id)];
    const statuses = orphansOf.get(stage.id);
    if (statuses) {
      here.push(
        sql`(${inArray(requests.stage, orphans)} AND ${inArray(
          requests.status,
          [...new Set(statuses)].filter((s) => REQUEST_STATUSES.includes(s)),
        )})`,
      );
    }
    return db()
      .select({ id: requests.id })
      .from(requests)
      .where(
        and(
          eq(requests.archived, false),
          here.length > 1 ? sql`(${sql.join(here, sql` OR `)})` : here[0],
          notQuarantined(),
          assignee ? assignedTo(assignee) : undefined,
        ),
      )
      .orderBy(desc(requests.createdAt), desc(requests.id))
      .limit(cards)
      .all()
      .map((r) => r.id);
  });
  const items = new Map(loadRequestListItems(idsOf.flat()).map((item) => [item.id, item]));
  const columns = p.stages.map((stage, i) => ({
    stage,
    count: Math.max(0, count.get(stage.id) ?? 0),
    items: idsOf[i].map((id) => items.get(id)).filter((item) => item !== undefined),
  }));
  return { columns, total: columns.reduce((n, c) => n + c.count, 0) };
}
