import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { SessionJson } from "~/lib/api-tokens";
import { sessions } from "~db/schema";
import { db } from "../platform/db.server";
import { audit } from "../privacy/audit.server";
import { type SessionAdmin, sessionIdleMs } from "./auth.server";

/**
 * The admin's own sessions (ADR 261): the list of the "Sicherheit" section and
 * `GET /api/admin/account/sessions`, and ending one or all others — at once, for cookie and Bearer
 * alike, since both carry the same token whose row is deleted.
 */

const live = (adminId: number, now = new Date()) =>
  and(
    eq(sessions.adminId, adminId),
    gt(sessions.expiresAt, now),
    gt(sessions.lastUsedAt, new Date(now.getTime() - sessionIdleMs())),
  );

/** The admin's live sessions, the current one first, then by last activity. */
export function listSessions(admin: Pick<SessionAdmin, "id" | "tokenHash">): SessionJson[] {
  const rows = db()
    .select()
    .from(sessions)
    .where(live(admin.id))
    .orderBy(desc(sessions.lastUsedAt))
    .all();
  return rows
    .map((row) => ({
      id: row.publicId ?? "",
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastUsedAt.toISOString(),
      userAgent: row.userAgent,
      network: row.network,
      current: row.tokenHash === admin.tokenHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

export type EndResult = { ok: true; current: boolean } | { ok: false; status: 404; error: string };

export const SESSION_MESSAGES = {
  notFound: "Sitzung nicht gefunden.",
  ended: "Die Sitzung wurde abgemeldet.",
  othersEnded: (n: number) =>
    n === 1
      ? "Eine andere Sitzung wurde abgemeldet."
      : n === 0
        ? "Es gab keine anderen Sitzungen."
        : `${n} andere Sitzungen wurden abgemeldet.`,
} as const;

/** Ends one of the admin's own sessions by its id (audited); `current` says it was this one. */
export function endSessionById(admin: SessionAdmin, id: string): EndResult {
  const row = id
    ? db()
        .select({ tokenHash: sessions.tokenHash })
        .from(sessions)
        .where(and(eq(sessions.adminId, admin.id), eq(sessions.publicId, id)))
        .get()
    : undefined;
  if (!row) return { ok: false, status: 404, error: SESSION_MESSAGES.notFound };
  db().delete(sessions).where(eq(sessions.tokenHash, row.tokenHash)).run();
  audit(admin, "session-ended", admin.username);
  return { ok: true, current: row.tokenHash === admin.tokenHash };
}

/** Ends every other session of the admin ("Alle anderen abmelden"); audited with the count. */
export function endOtherSessions(admin: SessionAdmin): number {
  const ended = db()
    .delete(sessions)
    .where(
      admin.tokenHash
        ? and(eq(sessions.adminId, admin.id), ne(sessions.tokenHash, admin.tokenHash))
        : eq(sessions.adminId, admin.id),
    )
    .run().changes;
  if (ended > 0) audit(admin, "session-ended", admin.username, { anzahl: ended });
  return ended;
}
