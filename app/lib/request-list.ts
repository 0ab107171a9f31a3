import { cleanAttributionValue } from "./attribution";
import { PROMISE_FILTERS, type PromiseFilter } from "./promises";
import { REQUEST_STATUSES, type RequestStatus } from "./request-status";

/** URL state of the requests page (shared by page and API). */
export const REQUEST_TABS = ["active", "mine", "archived", "quarantine"] as const;
export type RequestTab = (typeof REQUEST_TABS)[number];
export const TAB_LABELS: Record<RequestTab, string> = {
  active: "Aktive Anfragen",
  mine: "Mir zugewiesen",
  archived: "Archivierte Anfragen",
  // The spam quarantine (ADR 252): every other tab leaves these requests out.
  quarantine: "Prüfen",
};

export const REQUEST_SORTS = ["newest", "oldest", "id-desc", "id-asc", "relevance"] as const;
export type RequestSort = (typeof REQUEST_SORTS)[number];
export const SORT_LABELS: Record<RequestSort, string> = {
  // The spec's appointment sort says 'Neuste'; the request list uses the same words.
  newest: "Neuste",
  oldest: "Älteste",
  "id-desc": "Höchste ID",
  "id-asc": "Niedrigste ID",
  relevance: "Relevanz",
};

export const ASSIGNMENT_FILTERS = ["assigned", "unassigned"] as const;
export type AssignmentFilter = (typeof ASSIGNMENT_FILTERS)[number];
export const ASSIGNMENT_LABELS: Record<AssignmentFilter, string> = {
  assigned: "Zugewiesen",
  unassigned: "Nicht zugewiesen",
};

export const STATUS_LABELS: Record<RequestStatus, string> = {
  New: "Neu",
  "In Progress": "In Bearbeitung",
  Done: "Erledigt",
};
export { REQUEST_STATUSES };

/** Badge colours; also knows Completed and Cancelled (spec §4). */
export function statusClass(status: string): string {
  switch (status) {
    case "New":
      return "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200";
    case "In Progress":
      return "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200";
    case "Done":
    case "Completed":
      return "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200";
    case "Cancelled":
      return "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200";
    default:
      return "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200";
  }
}

export const PAGE_SIZE = 20;

/**
 * A search lists and counts at most this many hits (ADR 276); with more it says "mehr
 * als 1000 Treffer" (a deliberate deviation from the exact count, README).
 */
export const SEARCH_RESULT_CAP = 1000;

export type RequestListQuery = {
  tab: RequestTab;
  q: string;
  status: RequestStatus | "";
  assignment: AssignmentFilter | "";
  /** utm_source of the request (attribution); "" for all. */
  source: string;
  /** A pipeline stage id (ADR 345); "" for all. */
  stage: string;
  /** Requests with an open promise due today or past due (ADR 346); "" for all. */
  promise: PromiseFilter | "";
  sort: RequestSort;
  page: number;
};

/** A stage id as the URL may carry it (the configuration decides whether it exists). */
const cleanStage = (value: string | null) =>
  value && /^[a-z0-9][a-z0-9-]{0,39}$/.test(value) ? value : "";

const pick = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/** Reads the list state from URL search params; unknown values fall back to defaults. */
export function parseRequestListQuery(params: URLSearchParams): RequestListQuery {
  const q = (params.get("q") ?? "").trim().slice(0, 200);
  return {
    tab: pick(params.get("tab"), REQUEST_TABS, "active"),
    q,
    status: pick(params.get("status"), REQUEST_STATUSES, "" as RequestStatus),
    assignment: pick(params.get("assignment"), ASSIGNMENT_FILTERS, "" as AssignmentFilter),
    source: cleanAttributionValue(params.get("source"), "source") ?? "",
    stage: cleanStage(params.get("stage")),
    promise: pick(params.get("promise"), PROMISE_FILTERS, "" as PromiseFilter),
    sort: pick(params.get("sort"), REQUEST_SORTS, q ? "relevance" : "newest"),
    page: Math.max(1, Math.min(100_000, Number.parseInt(params.get("page") ?? "1", 10) || 1)),
  };
}

/** Search params for a list state, omitting defaults (for links and chips). */
export function requestListSearch(
  query: Partial<RequestListQuery>,
  extra: Record<string, string> = {},
) {
  const params = new URLSearchParams();
  if (query.tab && query.tab !== "active") params.set("tab", query.tab);
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (query.assignment) params.set("assignment", query.assignment);
  if (query.source) params.set("source", query.source);
  if (query.stage) params.set("stage", query.stage);
  if (query.promise) params.set("promise", query.promise);
  if (query.sort && query.sort !== (query.q ? "relevance" : "newest"))
    params.set("sort", query.sort);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/**
 * FTS5 MATCH expression: every word as a quoted prefix term (AND). Digit runs also match the
 * phone number without spaces, dashes or brackets.
 */
export function ftsQuery(input: string): string | null {
  const words = input
    .normalize("NFKC")
    // NUL and other control characters end an FTS5 string early ("unterminated string").
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .split(/\s+/)
    .map((w) => w.replace(/["*^:(){}[\]]/g, "").trim())
    .filter(Boolean)
    .slice(0, 12);
  if (!words.length) return null;
  const digits = input.replace(/\D/g, "");
  const terms = words.map((w) => `"${w}"*`).join(" AND ");
  if (digits.length >= 3 && /^[\d\s+\-./()]+$/.test(input.trim())) {
    return `(${terms}) OR phone_digits : "${digits}"*`;
  }
  return terms;
}
