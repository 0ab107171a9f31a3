import { type SQL, sql } from "drizzle-orm";
import { berlinDayOf, dayBoundsUtc } from "~/lib/booking-calendar";
import type { PromiseFilter } from "~/lib/promises";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import { dueTimesFor } from "./config.server";

/**
 * The promises' queries (ADR 346): due times set on receipt or release, the list's filters
 * "fällig"/"überfällig" and the dashboard's card "Versprechen". Open = not done, and the request is
 * neither archived nor in a stage of "Done"; held requests have no due times. Every query runs on
 * the partial indexes of migration 0023 and repeats their WHERE literally (SQLite matches them by
 * form).
 */

/** The due-time columns of a request received (or released) at `received`. */
export function promiseColumns(received: Date) {
  const due = dueTimesFor(received);
  return { contactDueAt: due.contactDueAt, trialDueAt: due.trialDueAt };
}

const PROMISES = [
  {
    due: requests.contactDueAt,
    done: requests.contactDoneAt,
    open: "requests_contact_open_idx",
    settled: "requests_contact_done_idx",
  },
  {
    due: requests.trialDueAt,
    done: requests.trialDoneAt,
    open: "requests_trial_open_idx",
    settled: "requests_trial_done_idx",
  },
] as const;

/** The end of today (Berlin), as epoch ms. */
const endOfToday = (now: Date) => dayBoundsUtc(berlinDayOf(now)).end.getTime();

/** Open promises whose due time lies in [from, to] (epoch ms; either side open). */
function openIn(p: (typeof PROMISES)[number], from: number | null, to: number | null): SQL {
  return sql`${p.done} IS NULL AND ${p.due} IS NOT NULL
    ${from === null ? sql`` : sql`AND ${p.due} >= ${from}`}
    ${to === null ? sql`` : sql`AND ${p.due} < ${to}`}
    AND ${requests.status} <> 'Done' AND ${requests.archived} = 0`;
}

/** The range of a filter: due = from now to the end of today; overdue = before now. */
function range(filter: PromiseFilter, now: Date): [number | null, number | null] {
  return filter === "due" ? [now.getTime(), endOfToday(now) + 1] : [null, now.getTime()];
}

/**
 * `?promise=due|overdue` of the list: requests with an open promise in the range, as an id set
 * read from the two partial indexes (not a test per row of the list's index).
 */
export function promiseFilterCondition(filter: PromiseFilter, now = new Date()): SQL {
  const [from, to] = range(filter, now);
  return openPromiseCondition(from, to);
}

/**
 * Requests with an open promise due in [from, to), as an id set read from the two partial indexes:
 * its cost is the open promises', whatever else the query asks (the morning digest's "Ihre Zusagen").
 */
export function openPromiseCondition(from: number | null, to: number | null): SQL {
  const [contact, trial] = PROMISES.map(
    (p) =>
      sql`SELECT ${requests.id} FROM ${requests} INDEXED BY ${sql.identifier(p.open)} WHERE ${openIn(p, from, to)}`,
  );
  return sql`${requests.id} IN (${contact} UNION ${trial})`;
}

export type PromiseStats = {
  /** Open promises due from now to the end of today. */
  dueToday: number;
  /** Open promises past their due time. */
  overdue: number;
  /** Promises due in the last 30 days: kept in time, kept late, still open. */
  last30Days: { kept: number; late: number; missed: number; share: number | null };
};

const DAY_MS = 86_400_000;

/** The dashboard's card "Versprechen" and `GET /api/admin/stats` → `promises`. */
export function promiseStats(now = new Date()): PromiseStats {
  const t = now.getTime();
  const since = t - 30 * DAY_MS;
  const counts = PROMISES.map((p) => {
    const open = (from: number | null, to: number | null) =>
      sql`(SELECT count(*) FROM ${requests} INDEXED BY ${sql.identifier(p.open)} WHERE ${openIn(p, from, to)})`;
    const settled = (kept: boolean) =>
      sql`(SELECT count(*) FROM ${requests} INDEXED BY ${sql.identifier(p.settled)}
           WHERE ${p.done} IS NOT NULL AND ${p.due} IS NOT NULL
             AND ${p.due} >= ${since} AND ${p.due} < ${t}
             AND ${kept ? sql`${p.done} <= ${p.due}` : sql`${p.done} > ${p.due}`})`;
    return db().get<{
      dueToday: number;
      overdue: number;
      missed: number;
      kept: number;
      late: number;
    }>(
      sql`SELECT ${open(t, endOfToday(now) + 1)} AS dueToday, ${open(null, t)} AS overdue,
            ${open(since, t)} AS missed, ${settled(true)} AS kept, ${settled(false)} AS late`,
    );
  });
  const sum = (key: "dueToday" | "overdue" | "missed" | "kept" | "late") =>
    counts.reduce((n, row) => n + Number(row?.[key] ?? 0), 0);
  const kept = sum("kept");
  const late = sum("late");
  const missed = sum("missed");
  const total = kept + late + missed;
  return {
    dueToday: sum("dueToday"),
    overdue: sum("overdue"),
    last30Days: { kept, late, missed, share: total ? kept / total : null },
  };
}
