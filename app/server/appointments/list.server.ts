import { and, asc, desc, eq, gte, inArray, lt, notInArray, or, type SQL, sql } from "drizzle-orm";
import { filterIsAll, filterStatuses, GROUPED_STATUSES } from "~/lib/appointment-status";
import { type AppointmentListQuery, searchAppointments } from "~/lib/appointments";
import { appointments, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { serializeAppointment } from "./appointments.server";

export function listAppointments(query: AppointmentListQuery) {
  const now = new Date();
  const where: SQL[] = [];
  if (query.filter === "upcoming") where.push(gte(appointments.startTime, now));
  if (query.filter === "past") where.push(lt(appointments.startTime, now));
  if (!filterIsAll(query.statuses)) {
    // Group keys (confirmed, pending, cancelled, other) or raw statuses; 'other' = outside the groups.
    const { statuses, other } = filterStatuses(query.statuses);
    const status = sql<string>`upper(${appointments.status})`;
    const parts: SQL[] = [];
    if (statuses.length) parts.push(inArray(status, statuses));
    if (other) parts.push(notInArray(status, [...GROUPED_STATUSES]));
    where.push(parts.length === 1 ? (parts[0] as SQL) : (or(...parts) as SQL));
  }
  const order =
    query.sort === "next"
      ? [asc(appointments.startTime), asc(appointments.id)]
      : [desc(appointments.startTime), desc(appointments.id)];
  const rows = db()
    .select({ appointment: appointments, request: requests })
    .from(appointments)
    .leftJoin(requests, eq(requests.id, appointments.requestId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(...order)
    .all();
  const all = searchAppointments(
    rows.map((r) => serializeAppointment(r.appointment, r.request)),
    query.search,
  );
  const totalCount = all.length;
  const totalPages = Math.max(1, Math.ceil(totalCount / query.limit));
  const page = Math.min(Math.max(1, query.page), totalPages);
  return {
    appointments: all.slice((page - 1) * query.limit, page * query.limit),
    pagination: {
      page,
      limit: query.limit,
      totalCount,
      totalPages,
      hasPrev: page > 1,
      hasNext: page < totalPages,
    },
  };
}

/**
 * Every appointment of one request, the next one first and then the past ones newest first (its
 * full-screen view: time, status, video link, move and cancel — the cards of Termine).
 */
export function appointmentsOfRequest(requestId: number) {
  const rows = db()
    .select({ appointment: appointments, request: requests })
    .from(appointments)
    .leftJoin(requests, eq(requests.id, appointments.requestId))
    .where(eq(appointments.requestId, requestId))
    .orderBy(desc(appointments.startTime), desc(appointments.id))
    .all()
    .map((r) => serializeAppointment(r.appointment, r.request));
  const now = Date.now();
  const upcoming = rows.filter((a) => Date.parse(a.startTime) >= now).reverse();
  const past = rows.filter((a) => Date.parse(a.startTime) < now);
  return [...upcoming, ...past];
}
