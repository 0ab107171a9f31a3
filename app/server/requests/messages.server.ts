import { asc, eq } from "drizzle-orm";
import type { RequestMessageJson } from "~/lib/request-message";
import { admins, mailOutbox, requestMessages, requests } from "~db/schema";
import { addressKey } from "../mail/address-key.server";
import type { MailKind } from "../mail/kinds.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import type { MailContent } from "../mail/render";
import { keepFirstContact } from "../pipeline/move.server";
import { type Db, db, transaction } from "../platform/db.server";
import { createLimiter, type Limiter } from "../platform/rate-limit.server";
import { type Failure, failure } from "../platform/result.server";
import { audit } from "../privacy/audit.server";
import { outboxMessageId, replyAddress } from "../replies/reply-address.server";
import { NOT_FOUND, requestTarget } from "./manage.server";
import { inIds } from "./serialize.server";

/**
 * Messages to the lead from the request (ADR 273): a mail through the outbox to the
 * lead's address, Reply-To the sending admin, signed with the brand's name; the request keeps
 * the thread (request_messages). At most MESSAGE_LIMITS per admin per hour and per lead per day
 * (rate_limits, one atomic upsert per hit: parallel sends cannot pass the limit).
 */
export const MESSAGE_LIMITS = { perAdminPerHour: 20, perLeadPerDay: 5 } as const;

export const MESSAGE_NO_SMTP =
  "Ohne Mailserver (SMTP_URL) kann keine Nachricht an den Kunden gehen – sie bliebe im Postausgang liegen. Bitte richten Sie den Mailversand ein.";
export const MESSAGE_QUARANTINED =
  "Die Anfrage wartet auf die Spamprüfung – geben Sie sie zuerst frei, bevor Sie dem Kunden schreiben.";
export const MESSAGE_NO_ADDRESS = "Zu dieser Anfrage ist keine E-Mail-Adresse mehr gespeichert.";
export const MESSAGE_ADMIN_LIMIT = `Sie haben in der letzten Stunde schon ${MESSAGE_LIMITS.perAdminPerHour} Nachrichten verschickt. Bitte versuchen Sie es später erneut.`;
export const MESSAGE_LEAD_LIMIT = `Dieser Kunde hat heute schon ${MESSAGE_LIMITS.perLeadPerDay} Nachrichten erhalten. Bitte versuchen Sie es morgen erneut.`;

let perAdmin: Limiter | undefined;
let perLead: Limiter | undefined;
const adminLimiter = () =>
  (perAdmin ??= createLimiter("message-admin", {
    points: MESSAGE_LIMITS.perAdminPerHour,
    durationSeconds: 3600,
  }));
const leadLimiter = () =>
  (perLead ??= createLimiter("message-lead", {
    points: MESSAGE_LIMITS.perLeadPerDay,
    durationSeconds: 24 * 3600,
  }));

type Sender = { id: number; username: string };
export type SendResult = { ok: true; message: RequestMessageJson } | Failure;

/**
 * A message with a mail of its own shape (the trial delivery, ADR 348): the mail's greeting,
 * paragraphs and button (the signature is added here, as for every message), its outbox kind, and
 * what else to write in the same transaction as the thread row.
 */
export type MessageMail = {
  content: MailContent;
  kind: MailKind;
  within?: (tx: Db, at: Date) => void;
};

/**
 * Sends one message to the lead of request `id` (page and API); `input.body` is what the thread
 * keeps (and, without `mail`, the mail's text). The first message keeps the first-contact promise.
 */
export async function sendMessage(
  id: number,
  sender: Sender,
  input: { subject: string; body: string },
  mail?: MessageMail,
): Promise<SendResult> {
  const lead = db()
    .select({ email: requests.email, quarantinedAt: requests.quarantinedAt })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  if (!lead) return NOT_FOUND;
  if (lead.quarantinedAt) return failure(409, MESSAGE_QUARANTINED);
  if (!lead.email) return failure(409, MESSAGE_NO_ADDRESS);
  if (!mailConfigured()) return failure(409, MESSAGE_NO_SMTP);
  const replyTo = db()
    .select({ email: admins.email })
    .from(admins)
    .where(eq(admins.id, sender.id))
    .get()?.email;
  if (!replyTo) return failure(403, "Ihr Konto wurde nicht gefunden.");
  // With an IMAP inbox the lead answers to its signed plus-address, the admin reads along (ADR 285).
  const inboxReplyTo = replyAddress(id);

  const adminKey = String(sender.id);
  if (!(await adminLimiter().consume(adminKey)).ok) return failure(429, MESSAGE_ADMIN_LIMIT);
  const leadKey = addressKey(lead.email);
  if (!(await leadLimiter().consume(leadKey)).ok) {
    await adminLimiter().refund(adminKey);
    return failure(429, MESSAGE_LEAD_LIMIT);
  }

  const row = transaction((tx) => {
    const queued = queueMail({
      to: lead.email,
      subject: input.subject,
      kind: mail?.kind ?? "message",
      requestId: id,
      replyTo: inboxReplyTo ?? replyTo,
      ...(inboxReplyTo ? { cc: replyTo } : {}),
      content: mail ? mail.content : { paragraphs: [input.body] },
    });
    const message = tx
      .insert(requestMessages)
      .values({
        requestId: id,
        direction: "out",
        subject: input.subject,
        body: input.body,
        adminId: sender.id,
        adminName: sender.username,
        mailId: queued.id,
        messageId: outboxMessageId(queued),
      })
      .returning()
      .get();
    keepFirstContact(tx, id, message.sentAt);
    mail?.within?.(tx, message.sentAt);
    return message;
  });
  // That a message went out, never its text.
  audit(sender, "message-sent", requestTarget(id), { message: row.id });
  return { ok: true, message: toJson(row, "pending") };
}

const STATUS = { pending: "queued", sent: "sent", failed: "failed" } as const;

function toJson(
  row: typeof requestMessages.$inferSelect,
  mailStatus: keyof typeof STATUS | null,
): RequestMessageJson {
  return {
    id: row.id,
    direction: row.direction,
    subject: row.subject,
    body: row.body,
    sentAt: row.sentAt.toISOString(),
    admin: row.adminName,
    status:
      row.direction === "in"
        ? "received"
        : // No outbox row any more: the retention dropped it long after it was sent.
          mailStatus
          ? STATUS[mailStatus]
          : "sent",
  };
}

/** The threads of `ids` (oldest first), with each message's status from the outbox. */
export function messagesOf(ids: number[]): Map<number, RequestMessageJson[]> {
  const out = new Map<number, RequestMessageJson[]>();
  if (!ids.length) return out;
  const rows = db()
    .select({ message: requestMessages, mailStatus: mailOutbox.status })
    .from(requestMessages)
    .leftJoin(mailOutbox, eq(mailOutbox.id, requestMessages.mailId))
    .where(inIds(requestMessages.requestId, ids))
    .orderBy(asc(requestMessages.id))
    .all();
  for (const { message, mailStatus } of rows) {
    const list = out.get(message.requestId) ?? [];
    list.push(toJson(message, mailStatus));
    out.set(message.requestId, list);
  }
  return out;
}

/** Removes the thread of a request (erasure that keeps the anonymised row). */
export function deleteMessagesOf(id: number) {
  db().delete(requestMessages).where(eq(requestMessages.requestId, id)).run();
}
