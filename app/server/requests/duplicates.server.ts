import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { RequestStatus } from "~/lib/request-status";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import { notQuarantined } from "./quarantine.server";

export type EarlierRequest = {
  id: number;
  name: string;
  createdAt: string;
  status: RequestStatus;
  archived: boolean;
};

const earlier = alias(requests, "earlier");
/**
 * An earlier request of the same person: same e-mail key or same phone key (both indexed); a
 * quarantined one (spam) does not count.
 */
const samePerson = and(
  lt(earlier.id, requests.id),
  or(eq(earlier.emailKey, requests.emailKey), eq(earlier.phoneKey, requests.phoneKey)),
  notQuarantined(earlier.id),
);

/** For the list's badge: id → number of earlier requests of the same person (absent when none). */
export function earlierRequestCounts(ids: number[]): Map<number, number> {
  if (!ids.length) return new Map();
  const rows = db()
    .select({ id: requests.id, n: sql<number>`count(DISTINCT ${earlier.id})` })
    .from(requests)
    .innerJoin(earlier, samePerson)
    .where(inArray(requests.id, ids))
    .groupBy(requests.id)
    .all();
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** The full-screen view: the earlier requests of the same person, newest first (capped). */
export function earlierRequestsOf(id: number, limit = 50): EarlierRequest[] {
  return db()
    .selectDistinct({
      id: earlier.id,
      name: earlier.name,
      createdAt: earlier.createdAt,
      status: earlier.status,
      archived: earlier.archived,
    })
    .from(requests)
    .innerJoin(earlier, samePerson)
    .where(eq(requests.id, id))
    .orderBy(desc(earlier.id))
    .limit(limit)
    .all()
    .map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
