import { berlinDaysBetween } from "./promises";

/**
 * The board's URL state (ADR 347): whose requests (`assignee`: "me" or an admin's id; none = all)
 * and, on a phone, the one column shown (`phase`, a stage id; none = the first).
 */
export type BoardQuery = { assignee: "me" | number | null; stage: string };

export function parseBoardQuery(params: URLSearchParams): BoardQuery {
  const raw = params.get("assignee") ?? "";
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  return {
    assignee: raw === "me" ? "me" : id > 0 ? id : null,
    stage: (params.get("phase") ?? "").slice(0, 64),
  };
}

/** Search params for a board state, omitting defaults. */
export function boardSearch(query: Partial<BoardQuery>): string {
  const params = new URLSearchParams();
  if (query.assignee) params.set("assignee", String(query.assignee));
  if (query.stage) params.set("phase", query.stage);
  const s = params.toString();
  return s ? `?${s}` : "";
}

export const BOARD_PATH = "/admin/requests/board";

/** A card's age: "heute eingegangen", "seit 1 Tag", "seit 12 Tagen" (Berlin calendar days). */
export function cardAge(createdAt: string, now: Date): string {
  const days = berlinDaysBetween(new Date(createdAt), now);
  if (days <= 0) return "heute eingegangen";
  return days === 1 ? "seit 1 Tag" : `seit ${days} Tagen`;
}
