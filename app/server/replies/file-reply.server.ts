import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { formatRequestId } from "~/lib/format";
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX } from "~/lib/request-message";
import { admins, requestMessages, requests } from "~db/schema";
import { markFollowUpAnswered } from "../follow-ups/answers.server";
import { notificationRecipients } from "../mail/notifications.server";
import { queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { createLimiter, type Limiter } from "../platform/rate-limit.server";
import { inIds } from "../requests/serialize.server";
import { imapInbox, repliesConfigured, requestOfAddress } from "./reply-address.server";

/** A mail from the inbox, parsed (text only; attachments were dropped). */
export type IncomingMail = {
  /** The mail's Message-ID, or a stand-in unique per inbox message (UIDVALIDITY and UID). */
  messageId: string;
  inReplyTo: string[];
  from: string | null;
  /** To, Cc and Delivered-To addresses. */
  recipients: string[];
  subject: string;
  text: string;
};

/** Replies stored per request and day at most; more stay unread in the inbox (a flood). */
export const REPLIES_PER_REQUEST_PER_DAY = 20;
let perRequest: Limiter | undefined;
const replyLimiter = () =>
  (perRequest ??= createLimiter("reply-request", {
    points: REPLIES_PER_REQUEST_PER_DAY,
    durationSeconds: 24 * 3600,
  }));

/**
 * Files a reply under its request (ADR 285) and notifies the admins; null when it is not a reply
 * to one of our messages (ignored, never stored), was filed before (same Message-ID), comes from
 * an admin or the inbox itself (an admin's "Allen antworten" puts the plus-address into Cc; the
 * admin has that mail already), or the request has its REPLIES_PER_REQUEST_PER_DAY already.
 * A match by the signed plus-address is taken from any other sender (the signature proves the
 * mail answers ours); a match by In-Reply-To/References only when it comes from the lead's address.
 */
export async function fileReply(
  mail: IncomingMail,
): Promise<{ requestId: number; messageId: number } | null> {
  if (fromOurSide(mail.from)) return null;
  const requestId = matchBySignature(mail) ?? matchByThread(mail);
  if (!requestId) return null;
  const key = String(requestId);
  if (!(await replyLimiter().consume(key)).ok) return null;
  // One notice while the request already carries an unread reply (checked before this one lands).
  const alreadyUnread = requestsWithNewReplies([requestId]).has(requestId);
  const row = db()
    .insert(requestMessages)
    .values({
      requestId,
      direction: "in",
      subject:
        clip(mail.subject.replace(/\s+/g, " ").trim(), MESSAGE_SUBJECT_MAX) || "(ohne Betreff)",
      body: clip(mail.text.trim(), MESSAGE_BODY_MAX),
      adminName: "",
      messageId: mail.messageId,
    })
    .onConflictDoNothing()
    .returning({ id: requestMessages.id })
    .get();
  if (!row) {
    await replyLimiter().refund(key);
    return null;
  }
  if (!alreadyUnread) notifyReply(requestId);
  // Nobody chases a lead who answered: the open follow-up says "Antwort erhalten" (ADR 351).
  markFollowUpAnswered(requestId, "reply");
  return { requestId, messageId: row.id };
}

/** The inbox's own address or an active admin's (case-insensitive). */
function fromOurSide(from: string | null): boolean {
  if (!from) return false;
  const address = from.trim().toLowerCase();
  if (address === imapInbox()?.address) return true;
  return Boolean(
    db()
      .select({ id: admins.id })
      .from(admins)
      .where(and(sql`lower(${admins.email}) = ${address}`, eq(admins.isActive, true)))
      .get(),
  );
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** A lead who is still there: a request with an address (erasure empties it). */
function leadOf(id: number) {
  const row = db()
    .select({ email: requests.email, name: requests.name })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  return row?.email ? row : null;
}

function matchBySignature(mail: IncomingMail): number | null {
  for (const address of mail.recipients) {
    const id = requestOfAddress(address);
    if (id && leadOf(id)) return id;
  }
  return null;
}

function matchByThread(mail: IncomingMail): number | null {
  const ids = mail.inReplyTo.filter(Boolean).slice(0, 50);
  if (!ids.length || !mail.from) return null;
  const ours = db()
    .select({ requestId: requestMessages.requestId })
    .from(requestMessages)
    .where(and(eq(requestMessages.direction, "out"), inArray(requestMessages.messageId, ids)))
    .get();
  if (!ours) return null;
  const lead = leadOf(ours.requestId);
  return lead && lead.email.toLowerCase() === mail.from.toLowerCase() ? ours.requestId : null;
}

/** The new-request channel (same recipients) tells the team a lead answered; never the text. */
function notifyReply(requestId: number) {
  const to = notificationRecipients();
  const lead = leadOf(requestId);
  if (!to.length || !lead) return;
  queueMail({
    to,
    subject: `Neue Antwort zu Anfrage #${formatRequestId(requestId)} von ${lead.name}`,
    kind: "reply-notice",
    requestId,
    content: {
      greeting: "Hallo,",
      paragraphs: [`${lead.name} hat auf eine Nachricht aus dem Portal geantwortet.`],
      action: {
        label: "Anfrage öffnen",
        url: `${env().APP_URL}/admin/requests?requestId=${requestId}`,
      },
    },
  });
}

/** The requests among `ids` with a reply no admin has opened yet ("Neue Antwort"). */
export function requestsWithNewReplies(ids: number[]): Set<number> {
  if (!ids.length) return new Set();
  const rows = db()
    .selectDistinct({ id: requestMessages.requestId })
    .from(requestMessages)
    .where(
      and(
        inIds(requestMessages.requestId, ids),
        eq(requestMessages.direction, "in"),
        isNull(requestMessages.readAt),
      ),
    )
    .all();
  return new Set(rows.map((r) => r.id));
}

/** An admin opened the request: its replies are read. */
export function markRepliesRead(requestId: number, now = new Date()) {
  db()
    .update(requestMessages)
    .set({ readAt: now })
    .where(
      and(
        eq(requestMessages.requestId, requestId),
        eq(requestMessages.direction, "in"),
        isNull(requestMessages.readAt),
      ),
    )
    .run();
}

/**
 * The request list's part (the page loader): whether replies come back at all, and which rows
 * carry "Neue Antwort". The request opened in the full-screen view counts as read first.
 */
export function repliesView(openId: number | null, ids: number[]) {
  if (openId) markRepliesRead(openId);
  return { configured: repliesConfigured(), newReplies: [...requestsWithNewReplies(ids)] };
}
