import { and, asc, desc, eq, gt, inArray, isNull, lte, or } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { mailSignature } from "~/lib/mail-signature";
import { type MailAttachment, mailOutbox, requestMessages } from "~db/schema";
import { isStaleReminder } from "../appointments/reminder-check.server";
import { branding, mailSender } from "../branding/branding.server";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { afterFailure, outboxWorker } from "../platform/outbox-retry.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { MAIL_KINDS, type MailKind } from "./kinds.server";
import { type MailContent, renderMail } from "./render";
import { carriesSecret, isSealed, maskedBody, openBody, sealBody } from "./secrets.server";
import { recordTestMailSent, TEST_MAIL_KIND } from "./test-mail.server";

export type OutboxMail = typeof mailOutbox.$inferSelect;

/** Attachments of one mail together (an .ics is about 1 KB). */
export const MAX_ATTACHMENT_BYTES = 64 * 1024;

/** Whether queued mails can leave at all (SMTP_URL set); without it they only reach the outbox. */
export const mailConfigured = () => Boolean(env().SMTP_URL);

/** Whether a visitor's booking is confirmed by mail: Cal.com sends its own, the built-in one needs SMTP. */
export const bookingConfirmationMailed = () => mailConfigured() || Boolean(env().CALCOM_API_KEY);

/**
 * A message to a lead goes out with the Message-ID stored with it (random, ADR 285): a reply's
 * In-Reply-To finds the request by it. Without a stored one nodemailer makes its own.
 */
function messageIdOf(mailId: number): { messageId?: string } {
  const row = db()
    .select({ messageId: requestMessages.messageId })
    .from(requestMessages)
    .where(eq(requestMessages.mailId, mailId))
    .get();
  return row?.messageId ? { messageId: row.messageId } : {};
}

/**
 * The signature block of a mail of `kind` (ADR 325): the sign-off of its reader ("du" or "Sie"),
 * the brand's name, the legal details of Einstellungen → Absender und Pflichtangaben.
 */
export function signatureOf(kind: MailKind) {
  const config = getConfiguration();
  return mailSignature(
    config.mailIdentity,
    { name: branding().name, isSet: config.branding.name !== null },
    MAIL_KINDS[kind],
  );
}

/**
 * Writes a mail to the durable outbox; the worker sends it when SMTP is configured. Every mail is
 * rendered here with the signature block of its kind (one of MAIL_KINDS).
 */
export function queueMail(input: {
  to: string | string[];
  subject: string;
  content: MailContent;
  kind: MailKind;
  /** The request whose personal data the mail carries (erased with it). */
  requestId?: number;
  /** The appointment the mail is about (reminders are dropped or moved with it). */
  appointmentId?: number;
  /** Calendar invites and the like (at most MAX_ATTACHMENT_BYTES together). */
  attachments?: MailAttachment[];
  /** Not before this time (a reminder); default: now. */
  sendAfter?: Date;
  /** When the mail's links die (default: 7 days after queueing). */
  linksExpireAt?: Date;
  /** Where answers go (a message to a lead: the sending admin, ADR 273). */
  replyTo?: string;
  /** A copy (a message to a lead with replies by IMAP: the sending admin, ADR 285). */
  cc?: string;
}): OutboxMail {
  const attachments = input.attachments?.length ? input.attachments : null;
  const size = (attachments ?? []).reduce((n, a) => n + Buffer.byteLength(a.content), 0);
  if (size > MAX_ATTACHMENT_BYTES) throw new Error("Mail attachments over the outbox limit");
  const to = (Array.isArray(input.to) ? input.to : [input.to]).filter(Boolean).join(", ");
  const rendered = renderMail(input.content, signatureOf(input.kind));
  // Reset and invitation links are encrypted at rest until sent (a database copy yields no link).
  const secret = carriesSecret(rendered.text) || carriesSecret(rendered.html);
  const text = secret ? sealBody(rendered.text) : rendered.text;
  const html = secret ? sealBody(rendered.html) : rendered.html;
  const row = db()
    .insert(mailOutbox)
    .values({
      to,
      subject: input.subject,
      text,
      html,
      kind: input.kind,
      requestId: input.requestId ?? null,
      appointmentId: input.appointmentId ?? null,
      attachments,
      linksExpireAt: input.linksExpireAt ?? null,
      replyTo: input.replyTo ?? null,
      cc: input.cc ?? null,
      ...(input.sendAfter ? { nextAttemptAt: input.sendAfter } : {}),
    })
    .returning()
    .get();
  kickWorker();
  return row;
}

export function listOutbox(limit = 200): OutboxMail[] {
  return db().select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit).all();
}

export function getOutboxMail(id: number): OutboxMail | undefined {
  return db().select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
}

/**
 * Puts a failed (or pending) mail back in the queue for an immediate attempt. A scheduled mail
 * not yet tried (a reminder waiting for its send-after time) is not sent early.
 */
export function retryMail(id: number, now = new Date()): boolean {
  const result = db()
    .update(mailOutbox)
    .set({ status: "pending", nextAttemptAt: new Date(), attempts: 0 })
    .where(
      and(
        eq(mailOutbox.id, id),
        inArray(mailOutbox.status, ["failed", "pending"]),
        eq(mailOutbox.masked, false),
        or(gt(mailOutbox.attempts, 0), lte(mailOutbox.nextAttemptAt, now)),
      ),
    )
    .run();
  kickWorker();
  return result.changes > 0;
}

/** The longest lifetime of a link a mail can carry (invitations: 7 days). */
export const SECRET_LINK_TTL_MS = 7 * 24 * 3600_000;

/**
 * Unsent mails whose links have expired keep no secret: the body is replaced by its masked copy
 * and the mail is marked failed (sending a dead link helps no one). Returns how many were wiped.
 */
export function wipeExpiredSecrets(now = new Date()): number {
  const cutoff = new Date(now.getTime() - SECRET_LINK_TTL_MS);
  const stale = db()
    .select()
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.masked, false),
        or(
          and(isNull(mailOutbox.linksExpireAt), lte(mailOutbox.createdAt, cutoff)),
          lte(mailOutbox.linksExpireAt, now),
        ),
      ),
    )
    .all()
    .filter((m) => m.status !== "sent" && (isSealed(m.text) || isSealed(m.html)));
  for (const mail of stale) {
    db()
      .update(mailOutbox)
      .set({
        text: maskedBody(mail.text),
        html: maskedBody(mail.html),
        masked: true,
        status: "failed",
        lastError: "Link abgelaufen – nicht gesendet.",
      })
      .where(eq(mailOutbox.id, mail.id))
      .run();
  }
  return stale.length;
}

let transporter: Transporter | undefined;
/** nodemailer (~5 MB of V8 heap) loads with the first mail to send, not at boot (ADR 166). */
async function smtp(): Promise<Transporter | undefined> {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  if (!transporter) {
    const { default: nodemailer } = await import("nodemailer");
    transporter ??= nodemailer.createTransport(url, { from: env().MAIL_FROM });
  }
  return transporter;
}

/** One batch: every due pending mail (up to 20) gets one attempt. */
async function sendDue(now: Date): Promise<{ attempted: number; sent: number }> {
  if (!env().SMTP_URL) return { attempted: 0, sent: 0 };
  const due = db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.id))
    .limit(20)
    .all();
  const transport = due.length ? await smtp() : undefined;
  if (!transport) return { attempted: 0, sent: 0 };
  let sent = 0;
  for (const mail of due) {
    // Checked right before sending: the booking may have been cancelled or moved meanwhile.
    if (isStaleReminder(mail)) {
      db().delete(mailOutbox).where(eq(mailOutbox.id, mail.id)).run();
      continue;
    }
    try {
      const text = openBody(mail.text);
      const html = openBody(mail.html);
      if (text === null || html === null)
        throw new Error("Inhalt nicht entschlüsselbar (SESSION_SECRET geändert?)");
      await transport.sendMail({
        from: mailSender(),
        to: mail.to,
        subject: mail.subject,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        ...(mail.cc ? { cc: mail.cc } : {}),
        // A message to a lead: its reply's In-Reply-To finds the request (ADR 285).
        ...(mail.kind === "message" ? messageIdOf(mail.id) : {}),
        text,
        html,
        ...mailFiles(mail.attachments),
      });
      db()
        .update(mailOutbox)
        .set({
          status: "sent",
          sentAt: new Date(),
          attempts: mail.attempts + 1,
          lastError: null,
          text: maskedBody(mail.text),
          html: maskedBody(mail.html),
          masked: true,
          attachments: null,
        })
        .where(eq(mailOutbox.id, mail.id))
        .run();
      if (mail.kind === TEST_MAIL_KIND) recordTestMailSent();
      sent++;
    } catch (error) {
      db()
        .update(mailOutbox)
        .set({
          ...afterFailure(mail.attempts),
          lastError: error instanceof Error ? error.message : String(error),
        })
        .where(eq(mailOutbox.id, mail.id))
        .run();
    }
  }
  return { attempted: due.length, sent };
}

/** An invite travels as nodemailer's calendar alternative (clients offer "accept"); others as files. */
function mailFiles(attachments: MailAttachment[] | null) {
  const invite = attachments?.find((a) => a.method);
  const files = (attachments ?? []).filter((a) => a !== invite);
  return {
    ...(invite
      ? { icalEvent: { method: invite.method, filename: invite.filename, content: invite.content } }
      : {}),
    ...(files.length
      ? {
          attachments: files.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
          })),
        }
      : {}),
  };
}

const worker = outboxWorker({
  label: "Outbox",
  sendDue,
  // Polls only while SMTP is configured; without it mails wait in the outbox.
  enabled: mailConfigured,
  onStop() {
    transporter?.close();
    transporter = undefined;
  },
});
const kickWorker = () => worker.kick();

/** Sends every due pending mail once; returns how many were sent. */
export const processOutbox = (now = new Date()) => worker.process(now);

/** Background sender: polls the outbox every 5 s while SMTP is configured. */
export const startMailWorker = (intervalMs?: number) => worker.start(intervalMs);
export const stopMailWorker = () => worker.stop();

/**
 * Deterministic flush for tests: waits for a batch already under way, then sends until no mail is
 * due. Resolves with how many mails were sent; a mail that should not exist is in the inbox by then.
 * `now` is a fake clock for tests (e.g. a day later, so a reminder is due).
 */
registerTestHooks({ drainOutbox: (now?: Date) => worker.drain(now) });
