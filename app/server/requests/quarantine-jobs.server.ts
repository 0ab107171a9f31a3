import { and, asc, isNotNull, lt } from "drizzle-orm";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import { eraseRequest } from "../privacy/erasure.server";
import { quarantineDays } from "./quarantine.server";

const DAY = 86_400_000;

/**
 * Erases the requests quarantined longer than `spam.quarantineDays` (part of the daily retention
 * run, whose last run job_runs keeps across restarts); returns how many. Read through the partial
 * index requests_quarantined_idx.
 */
export async function eraseExpiredQuarantine(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - quarantineDays() * DAY);
  const expired = db()
    .select({ id: requests.id })
    .from(requests)
    .where(and(isNotNull(requests.quarantinedAt), lt(requests.quarantinedAt, cutoff)))
    .orderBy(asc(requests.id))
    .all();
  let erased = 0;
  for (const { id } of expired) {
    if ((await eraseRequest(id)).ok) erased += 1;
  }
  return erased;
}
