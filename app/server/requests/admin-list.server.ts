import type { AdminRequestJson } from "~/lib/request-json";
import { db } from "../platform/db.server";
import { extrasOfRow } from "./admin-extras.server";
import { requestColumns } from "./columns.server";
import { messagesOf } from "./messages.server";
import { loadRelated, requestRowsByIds } from "./serialize.server";
import { ALL_WORK_ITEMS, type WorkItemsVisible, workItemsOf } from "./work-items.server";

/** Rows serialised at a time by `adminRequestsJsonParts` (see there). */
export const ADMIN_LIST_BATCH = 100;

/**
 * The admin JSON of these requests (in this order, missing ids skipped) as one JSON array in
 * UTF-8 parts — the bytes of `JSON.stringify(asAdminJson(loadRequestsJson(ids)))` — for the
 * unpaginated API lists (up to 1,000 requests with their extras; ADR 298). It is built `batch` rows
 * at a time, each batch read, serialised and encoded before the next, inside one read transaction
 * (one snapshot, as one query would be): what is alive at any moment is one batch's objects and the
 * finished bytes (outside V8's heap). Built in one piece, the 1,000 rows outlived the server's
 * 4 MB young generation (ADR 297) and were copied and promoted on every scavenge — at 1M requests
 * about half of the call's CPU went to the collector, and its major collections made the p95.
 */
export function adminRequestsJsonParts(
  ids: number[],
  batch = ADMIN_LIST_BATCH,
  visible: WorkItemsVisible = ALL_WORK_ITEMS,
): Buffer[] {
  const build = () => {
    // Attachments, assignees, messages, notes and follow-ups are few: read once for all.
    const related = loadRelated(ids);
    const threads = messagesOf(ids);
    const work = workItemsOf(ids, visible);
    const parts = [Buffer.from("[")];
    for (let start = 0; start < ids.length; start += batch) {
      const rows = requestRowsByIds(ids.slice(start, start + batch));
      if (!rows.length) continue;
      // `asAdminJson` for rows already read: quarantine and transcript come from the row itself.
      const items: AdminRequestJson[] = rows.map((row) => ({
        ...requestColumns.json(row, related.files(row.id), related.assignedTo(row.id)),
        quarantined: row.quarantinedAt !== null,
        ...extrasOfRow(row, threads.get(row.id)),
        ...work(row.id),
      }));
      const text = JSON.stringify(items);
      // The array's items without its brackets, after a comma unless they are the first.
      parts.push(Buffer.from(parts.length > 1 ? `,${text.slice(1, -1)}` : text.slice(1, -1)));
    }
    parts.push(Buffer.from("]"));
    return parts;
  };
  return db().$client.transaction(build).deferred();
}
