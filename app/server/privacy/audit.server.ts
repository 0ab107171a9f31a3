import { and, count, desc, eq, gte, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { type AuditAction, type AuditQuery, auditDetailsText, auditViaLabel } from "~/lib/audit";
import { admins, auditLog } from "~db/schema";
import { db } from "../platform/db.server";
import { currentVia } from "./audit-via.server";

/**
 * Who acted: an admin, or the system (jobs) / the visitor (withdrawal) / someone on the server's
 * command line (npm run admin:reset-password).
 */
export type AuditActor =
  | { id: number; username: string }
  | "System"
  | "Besucher"
  | "Kommandozeile"
  | "Unbekannt";

/** An admin as actor by id (the name is resolved for display, ADR 262). */
export function adminActor(id: number): AuditActor {
  const row = db()
    .select({ username: admins.username })
    .from(admins)
    .where(eq(admins.id, id))
    .get();
  return { id, username: row?.username ?? `#${id}` };
}

/**
 * How the actor acted (ADR 319): the command line is "cli"; an admin acts in a session unless the
 * request was authenticated by an API token (audit-via.server.ts); jobs and visitors have none.
 */
function viaOf(actor: AuditActor) {
  if (actor === "Kommandozeile") return "cli";
  if (typeof actor === "string") return null;
  return currentVia() ?? "session";
}

/** Appends one entry. Targets and details name ids and counts, never personal data. */
export function audit(
  actor: AuditActor,
  action: AuditAction,
  target = "",
  details?: Record<string, unknown>,
  at = new Date(),
) {
  db()
    .insert(auditLog)
    .values({
      at,
      actorId: typeof actor === "string" ? null : actor.id,
      actorName: typeof actor === "string" ? actor : actor.username,
      action,
      target,
      details: details ? JSON.stringify(details) : null,
      via: viaOf(actor),
    })
    .run();
}

export const AUDIT_PAGE_SIZE = 50;

/** Berlin midnight of an ISO day is close enough for a filter: the day in UTC. */
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The filters of the page and its CSV: the actor is an admin's id ("12") or a job actor's name
 * ("System"); a name also finds an admin by their current or former name.
 */
function auditCondition(query: AuditQuery) {
  const where: SQL[] = [];
  if (/^\d+$/.test(query.actor)) where.push(eq(auditLog.actorId, Number(query.actor)));
  else if (query.actor) {
    const name = query.actor.toLowerCase();
    where.push(
      or(
        sql`lower(${auditLog.actorName}) = ${name}`,
        sql`${auditLog.actorId} IN (SELECT id FROM admins WHERE lower(username) = ${name})`,
      ) as SQL,
    );
  }
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.from) where.push(gte(auditLog.at, dayStart(query.from)));
  if (query.to) where.push(lt(auditLog.at, new Date(dayStart(query.to).getTime() + 86_400_000)));
  return where.length ? and(...where) : undefined;
}

/** Entries as shown: the admin's current name for an admin actor (the stored one if deleted). */
const entrySelection = {
  id: auditLog.id,
  at: auditLog.at,
  actorId: auditLog.actorId,
  actorName: sql<string>`coalesce(${admins.username}, ${auditLog.actorName})`,
  action: auditLog.action,
  target: auditLog.target,
  details: auditLog.details,
  via: auditLog.via,
};
const toView = (e: { id: number; at: Date; actorName: string } & Record<string, unknown>) => ({
  id: e.id,
  at: e.at.toISOString(),
  actor: e.actorName,
  action: e.action as string,
  target: e.target as string,
  details: auditDetailsText(e.action as string, (e.details as string | null) ?? null),
  via: auditViaLabel((e.via as string | null) ?? null),
});

/** The actors of the filter: every admin in the log by id, the job actors by name. */
function auditActors() {
  const jobActors = db()
    .selectDistinct({ name: auditLog.actorName })
    .from(auditLog)
    .where(isNull(auditLog.actorId))
    .all()
    .map((a) => ({ value: a.name, label: a.name }));
  const adminActors = db()
    .selectDistinct({ id: auditLog.actorId, name: entrySelection.actorName })
    .from(auditLog)
    .leftJoin(admins, eq(admins.id, auditLog.actorId))
    .where(sql`${auditLog.actorId} IS NOT NULL`)
    .all()
    .map((a) => ({ value: String(a.id), label: a.name }));
  const seen = new Set<string>();
  return [...adminActors, ...jobActors]
    .filter((a) => !seen.has(a.value) && seen.add(a.value))
    .sort((a, b) => a.label.localeCompare(b.label, "de"));
}

export function listAudit(query: AuditQuery) {
  const condition = auditCondition(query);
  const total = db().select({ n: count() }).from(auditLog).where(condition).get()?.n ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(query.page, totalPages);
  const entries = db()
    .select(entrySelection)
    .from(auditLog)
    .leftJoin(admins, eq(admins.id, auditLog.actorId))
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .all()
    .map(toView);
  return { entries, total, page, totalPages, actors: auditActors() };
}

const CSV_BATCH = 1000;
/** Every entry of the filter, newest first, in batches (the CSV export). */
export function* auditEntries(query: AuditQuery) {
  const condition = auditCondition(query);
  for (let offset = 0; ; offset += CSV_BATCH) {
    const rows = db()
      .select(entrySelection)
      .from(auditLog)
      .leftJoin(admins, eq(admins.id, auditLog.actorId))
      .where(condition)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(CSV_BATCH)
      .offset(offset)
      .all();
    for (const row of rows) yield toView(row);
    if (rows.length < CSV_BATCH) return;
  }
}

/** Deletes entries older than `before` (retention of the log itself). */
export function purgeAudit(before: Date): number {
  return db().delete(auditLog).where(lt(auditLog.at, before)).run().changes;
}
