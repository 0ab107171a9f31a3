import { and, asc, eq, gt, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import { berlinToday, type IsoDay } from "~/lib/booking-calendar";
import {
  endOfWeek,
  FOLLOW_UP_MESSAGES,
  type FollowUpInput,
  type FollowUpJson,
  TASK_BUCKETS,
  type TaskBucket,
  type TaskJson,
} from "~/lib/follow-ups";
import { admins, followUps, requests } from "~db/schema";
import { db, transaction } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import { audit } from "../privacy/audit.server";
import { NOT_FOUND, requestTarget } from "../requests/manage.server";
import { inIds } from "../requests/serialize.server";

/**
 * Follow-ups ("Wiedervorlage", ADR 351): at most one open per request (a partial unique index),
 * owned by whoever set it last; the page, `/api/admin/requests/{id}/follow-up` and the tasks page
 * call these rules. A lead's reply or booking marks the open one, so nobody chases a lead who
 * answered.
 */

type Actor = { id: number; username: string };
export type FollowUpResult = { ok: true; followUp: FollowUpJson } | Failure;

type Row = typeof followUps.$inferSelect;
const columns = {
  row: followUps,
  admin: admins.username,
};

function toJson(row: Row, admin: string | null): FollowUpJson {
  return {
    id: row.id,
    requestId: row.requestId,
    due: row.dueDay,
    text: row.text,
    adminId: row.adminId,
    admin: admin ?? `#${row.adminId}`,
    createdAt: row.createdAt.toISOString(),
    doneAt: row.doneAt?.toISOString() ?? null,
    answer: row.answer ?? null,
    answeredAt: row.answeredAt?.toISOString() ?? null,
  };
}

const isOpen = isNull(followUps.doneAt);

/** The open follow-up of each of `ids` (requests without one are missing from the map). */
export function followUpsOf(ids: number[]): Map<number, FollowUpJson> {
  if (!ids.length) return new Map();
  const rows = db()
    .select(columns)
    .from(followUps)
    .leftJoin(admins, eq(admins.id, followUps.adminId))
    .where(and(isOpen, inIds(followUps.requestId, ids)))
    .all();
  return new Map(rows.map(({ row, admin }) => [row.requestId, toJson(row, admin)]));
}

/** Every follow-up of `ids`, open and finished, oldest first (the person export). */
export function followUpHistoryOf(ids: number[]): Map<number, FollowUpJson[]> {
  const out = new Map<number, FollowUpJson[]>();
  if (!ids.length) return out;
  const rows = db()
    .select(columns)
    .from(followUps)
    .leftJoin(admins, eq(admins.id, followUps.adminId))
    .where(inIds(followUps.requestId, ids))
    .orderBy(asc(followUps.id))
    .all();
  for (const { row, admin } of rows) {
    const list = out.get(row.requestId) ?? [];
    list.push(toJson(row, admin));
    out.set(row.requestId, list);
  }
  return out;
}

/** The open follow-up of one request, or null. */
export const openFollowUp = (requestId: number): FollowUpJson | null =>
  followUpsOf([requestId]).get(requestId) ?? null;

/**
 * "Wiedervorlage setzen": the request's open follow-up moves to the new day and text and becomes
 * the actor's task (a mark of an earlier answer is cleared: a new promise); else a new one. One
 * immediate transaction with the partial unique index as the last guard: two parallel "setzen"
 * leave one open follow-up.
 */
export function setFollowUp(requestId: number, actor: Actor, input: FollowUpInput): FollowUpResult {
  const exists = db()
    .select({ id: requests.id })
    .from(requests)
    .where(eq(requests.id, requestId))
    .get();
  if (!exists) return NOT_FOUND;
  const row = transaction((tx) => {
    const values = { dueDay: input.due, text: input.text, adminId: actor.id };
    const moved = tx
      .update(followUps)
      .set({ ...values, answer: null, answeredAt: null })
      .where(and(eq(followUps.requestId, requestId), isOpen))
      .returning()
      .get();
    return (
      moved ??
      tx
        .insert(followUps)
        .values({ requestId, ...values })
        .returning()
        .get()
    );
  });
  audit(actor, "follow-up-set", requestTarget(requestId), { faellig: input.due });
  return { ok: true, followUp: toJson(row, actor.username) };
}

/** "Erledigt": finishes the request's open follow-up (404 when there is none). */
export function completeFollowUp(
  requestId: number,
  actor: Actor,
  now = new Date(),
): FollowUpResult {
  const row = db()
    .update(followUps)
    .set({ doneAt: now, doneBy: actor.id })
    .where(and(eq(followUps.requestId, requestId), isOpen))
    .returning()
    .get();
  if (!row) return failure(404, FOLLOW_UP_MESSAGES.notFound);
  audit(actor, "follow-up-done", requestTarget(requestId), { faellig: row.dueDay });
  const owner = db()
    .select({ username: admins.username })
    .from(admins)
    .where(eq(admins.id, row.adminId))
    .get();
  return { ok: true, followUp: toJson(row, owner?.username ?? null) };
}

/** At most this many tasks per bucket on the tasks page (the rest is counted). */
export const TASKS_PER_BUCKET = 50;

export type Tasks = {
  today: IsoDay;
  buckets: Record<TaskBucket, { items: TaskJson[]; total: number }>;
};

/** The day range of each bucket (the partial index follow_ups_open_admin_idx answers each). */
function bucketWhere(bucket: TaskBucket, today: IsoDay): SQL {
  const day = followUps.dueDay;
  switch (bucket) {
    case "overdue":
      return lt(day, today);
    case "today":
      return eq(day, today);
    case "week":
      return and(gt(day, today), lte(day, endOfWeek(today))) as SQL;
    case "later":
      return gt(day, endOfWeek(today));
  }
}

/** An admin's open follow-ups by bucket (overdue, today, this week, later), earliest first. */
export function tasksOf(adminId: number, now = new Date(), limit = TASKS_PER_BUCKET): Tasks {
  const today = berlinToday(now);
  const mine = and(eq(followUps.adminId, adminId), isOpen);
  const buckets = {} as Tasks["buckets"];
  for (const bucket of TASK_BUCKETS) {
    const where = and(mine, bucketWhere(bucket, today));
    const rows = db()
      .select({ ...columns, requestName: requests.name })
      .from(followUps)
      .innerJoin(requests, eq(requests.id, followUps.requestId))
      .leftJoin(admins, eq(admins.id, followUps.adminId))
      .where(where)
      .orderBy(asc(followUps.dueDay), asc(followUps.id))
      .limit(limit)
      .all();
    const total =
      rows.length < limit
        ? rows.length
        : (db().select({ n: sql<number>`count(*)` }).from(followUps).where(where).get()?.n ?? 0);
    buckets[bucket] = {
      items: rows.map(({ row, admin, requestName }) => ({ ...toJson(row, admin), requestName })),
      total,
    };
  }
  return { today, buckets };
}

/** The counts of the dashboard card "Meine Aufgaben" (overdue, today, the rest of the week). */
export function taskCounts(adminId: number, now = new Date()): Record<TaskBucket, number> {
  const today = berlinToday(now);
  const counts = {} as Record<TaskBucket, number>;
  for (const bucket of TASK_BUCKETS) {
    counts[bucket] =
      db()
        .select({ n: sql<number>`count(*)` })
        .from(followUps)
        .where(and(eq(followUps.adminId, adminId), isOpen, bucketWhere(bucket, today)))
        .get()?.n ?? 0;
  }
  return counts;
}
