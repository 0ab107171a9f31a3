import { and, count, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { AuditAction, AuditQuery } from "~/lib/audit";
import { auditLog } from "~db/schema";
import { db } from "../db.server";

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
    })
    .run();
}

export const AUDIT_PAGE_SIZE = 50;

/** Berlin midnight of an ISO day is close enough for a filter: the day in UTC. */
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);

export function listAudit(query: AuditQuery) {
  const where: SQL[] = [];
  if (query.actor) where.push(sql`lower(${auditLog.actorName}) = ${query.actor.toLowerCase()}`);
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.from) where.push(gte(auditLog.at, dayStart(query.from)));
  if (query.to) where.push(lt(auditLog.at, new Date(dayStart(query.to).getTime() + 86_400_000)));
  const condition = where.length ? and(...where) : undefined;
  const total = db().select({ n: count() }).from(auditLog).where(condition).get()?.n ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(query.page, totalPages);
  const entries = db()
    .select()
    .from(auditLog)
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .all()
    .map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      actor: e.actorName,
      action: e.action,
      target: e.target,
      details: e.details,
    }));
  const actors = db()
    .selectDistinct({ name: auditLog.actorName })
    .from(auditLog)
    .orderBy(auditLog.actorName)
    .all()
    .map((a) => a.name);
  return { entries, total, page, totalPages, actors };
}

/** Deletes entries older than `before` (retention of the log itself). */
export function purgeAudit(before: Date): number {
  return db().delete(auditLog).where(lt(auditLog.at, before)).run().changes;
}
