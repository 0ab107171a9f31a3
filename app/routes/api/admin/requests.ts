import { cleanAttributionValue } from "~/lib/attribution";
import { parseRequestListQuery } from "~/lib/request-list";
import { adminApi, noStoreJsonParts } from "~/server/http/api-route.server";
import { adminRequestsJsonParts } from "~/server/requests/admin-list.server";
import { listAllRequestIds, listRequestIds } from "~/server/requests/queries.server";
import { workItemsVisibleTo } from "~/server/requests/work-items.server";

/** Search hits answered at once (the unpaginated list's cap is 1000 too). */
const SEARCH_LIMIT = 1000;

/**
 * GET /api/admin/requests[?filter=assigned-to-me][&source=…][&stage=…][&promise=due|overdue][&search=…] → the active requests
 * (newest first), without the quarantined ones; `?quarantined=true` lists those instead (ADR 252).
 * `search` is the HTML list's full-text search (`?q=`, FTS5, ranked by relevance), same rules.
 * The list is serialised in batches (ADR 298).
 */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Requests", scope: "requests:read" },
  ({ request, admin }) => {
    const params = new URL(request.url).searchParams;
    const mine = params.get("filter") === "assigned-to-me";
    const quarantined = params.get("quarantined") === "true";
    const source = cleanAttributionValue(params.get("source"), "source") ?? undefined;
    const search = (params.get("search") ?? "").trim();
    // The pipeline's filters (ADRs 345, 346): a stage, an open promise due today or past due.
    const { stage, promise } = parseRequestListQuery(params);
    const ids = search
      ? listRequestIds(
          parseRequestListQuery(
            new URLSearchParams({
              q: search,
              tab: quarantined ? "quarantine" : mine ? "mine" : "active",
              source: source ?? "",
              stage,
              promise,
            }),
          ),
          admin.id,
          SEARCH_LIMIT,
        ).ids
      : listAllRequestIds({
          archived: false,
          quarantined,
          assignedTo: mine ? admin.id : undefined,
          source,
          stage: stage || undefined,
          promise: promise || undefined,
        });
    const parts = adminRequestsJsonParts(ids, undefined, workItemsVisibleTo(admin));
    return noStoreJsonParts(parts, "requests");
  },
);
