import { and, desc, eq, gte, inArray, ne } from "drizzle-orm";
import { calendarFeed } from "~/lib/calendar";
import { formatRequestId } from "~/lib/format";
import type { FeedLinkView } from "~/lib/team-calendar";
import { admins, appointments, calendarFeedTokens } from "~db/schema";
import { hashToken, randomToken } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { failure, type Result } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";

/**
 * The private feed of booked demos (ADR 267): `/admin/kalender.ics?token=…` to subscribe to in
 * the team's calendar. The token is stored as SHA-256 only (shown once), revocable, its creation
 * and revocation audited; it belongs to an admin and dies with the account (or its deactivation).
 * The feed holds only the time, "Demo #0042" and the admin link — no lead data.
 */
export const FEED_PATH = "/admin/kalender.ics";
export const MAX_FEED_TOKENS = 20;

type Actor = { id: number; username: string };

export const feedUrlOf = (token: string) => `${env().APP_URL}${FEED_PATH}?token=${token}`;

/** A new subscription link (the only time its token is seen in full). */
export function createFeedToken(actor: Actor): Result<{ url: string; id: number }> {
  const count = db().select({ id: calendarFeedTokens.id }).from(calendarFeedTokens).all().length;
  if (count >= MAX_FEED_TOKENS)
    return failure(
      409,
      `Höchstens ${MAX_FEED_TOKENS} Abo-Links – bitte widerrufen Sie zuerst einen.`,
    );
  const token = randomToken(32);
  const row = db()
    .insert(calendarFeedTokens)
    .values({ tokenHash: hashToken(token), adminId: actor.id })
    .returning({ id: calendarFeedTokens.id })
    .get();
  audit(actor, "calendar-feed-created", `Abo-Link ${row.id}`);
  return { ok: true, url: feedUrlOf(token), id: row.id };
}

/** Revokes a link (any admin: the feed is the team's); false when it does not exist. */
export function revokeFeedToken(actor: Actor, id: number): boolean {
  const gone =
    db().delete(calendarFeedTokens).where(eq(calendarFeedTokens.id, id)).run().changes > 0;
  if (gone) audit(actor, "calendar-feed-revoked", `Abo-Link ${id}`);
  return gone;
}

/**
 * Revokes every link of one admin (a password or 2FA reset, ADR 316): each audited; their ids.
 */
export function revokeFeedTokensOf(adminId: number, actor: AuditActor): number[] {
  const gone = db()
    .delete(calendarFeedTokens)
    .where(eq(calendarFeedTokens.adminId, adminId))
    .returning({ id: calendarFeedTokens.id })
    .all()
    .map((r) => r.id);
  for (const id of gone) audit(actor, "calendar-feed-revoked", `Abo-Link ${id}`);
  return gone;
}

export function listFeedTokens(): FeedLinkView[] {
  return db()
    .select({ token: calendarFeedTokens, username: admins.username })
    .from(calendarFeedTokens)
    .innerJoin(admins, eq(admins.id, calendarFeedTokens.adminId))
    .orderBy(desc(calendarFeedTokens.id))
    .all()
    .map(({ token, username }) => ({
      id: token.id,
      createdAt: token.createdAt.toISOString(),
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
      createdBy: username,
    }));
}

/** Demos from this many days ago on are in the feed. */
const PAST_DAYS = 30;

/** The feed for a valid token of an active admin; null otherwise (the route answers 404). */
export function demoFeed(token: string | null, now = new Date()): string | null {
  if (!token || token.length > 100) return null;
  const found = db()
    .select({ id: calendarFeedTokens.id })
    .from(calendarFeedTokens)
    .innerJoin(admins, eq(admins.id, calendarFeedTokens.adminId))
    .where(and(eq(calendarFeedTokens.tokenHash, hashToken(token)), eq(admins.isActive, true)))
    .get();
  if (!found) return null;
  db()
    .update(calendarFeedTokens)
    .set({ lastUsedAt: now })
    .where(eq(calendarFeedTokens.id, found.id))
    .run();
  const rows = db()
    .select({
      id: appointments.id,
      uid: appointments.externalUid,
      sequence: appointments.sequence,
      start: appointments.startTime,
      minutes: appointments.durationMinutes,
      requestId: appointments.requestId,
    })
    .from(appointments)
    .where(
      and(
        gte(appointments.startTime, new Date(now.getTime() - PAST_DAYS * 86_400_000)),
        ne(appointments.status, "CANCELLED"),
        inArray(appointments.status, [
          "ACCEPTED",
          "PENDING",
          "CONFIRMED",
          "BOOKED",
          "AWAITING_HOST",
        ]),
      ),
    )
    .orderBy(appointments.startTime)
    .limit(2000)
    .all();
  const base = env().APP_URL;
  return calendarFeed(
    "Demo-Termine",
    rows.map((r) => ({
      uid: `demo-feed-${r.uid}`,
      sequence: r.sequence,
      start: r.start,
      end: new Date(r.start.getTime() + r.minutes * 60_000),
      summary: r.requestId ? `Demo #${formatRequestId(r.requestId)}` : "Demo",
      url: r.requestId
        ? `${base}/admin/requests?requestId=${r.requestId}`
        : `${base}/admin/appointments?filter=upcoming`,
    })),
    now,
  );
}
