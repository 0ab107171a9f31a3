import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  to: string[];
  /** The From header's display name and address. */
  from: { name: string; address: string };
  subject: string;
  /** Reply-To addresses (empty when the mail has none). */
  replyTo: string[];
  /** Cc addresses (empty when the mail has none). */
  cc: string[];
  /** The Message-ID header. */
  messageId: string;
  text: string;
  html: string;
  /** Files and calendar parts (an invite: mimeType text/calendar, method REQUEST or CANCEL). */
  attachments: { filename: string | null; mimeType: string; method?: string; content: string }[];
  receivedAt: string;
};

/**
 * A real SMTP server on loopback collecting parsed mails (integration tests use port 0, the e2e
 * stack a fixed port). `reject` may refuse a delivery to test retries; `delayMs` makes the server
 * answer each mail that much later (a slow mail server, to prove tests drain instead of sleeping).
 */
export async function startSmtpInbox(
  options: { port?: number; reject?: () => Error | null; delayMs?: () => number } = {},
) {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const refusal = options.reject?.();
        if (refusal) {
          callback(refusal);
          return;
        }
        const delay = options.delayMs?.() ?? 0;
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        const mail = await PostalMime.parse(Buffer.concat(chunks));
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: { name: mail.from?.name ?? "", address: mail.from?.address ?? "" },
          subject: mail.subject ?? "",
          replyTo: (mail.replyTo ?? []).flatMap((r) => (r.address ? [r.address] : [])),
          cc: (mail.cc ?? []).flatMap((r) => (r.address ? [r.address] : [])),
          messageId: mail.messageId ?? "",
          text: mail.text ?? "",
          html: mail.html ?? "",
          attachments: mail.attachments.map((a) => ({
            filename: a.filename,
            mimeType: a.mimeType,
            method: a.method,
            content:
              typeof a.content === "string"
                ? a.content
                : Buffer.from(a.content as ArrayBuffer).toString("utf8"),
          })),
          receivedAt: new Date().toISOString(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    /** Waits for a mail to `to` whose subject matches. */
    async waitFor(to: string, subject: RegExp = /./, timeoutMs = 15_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = [...mails]
          .reverse()
          .find(
            (m) =>
              m.to.some((r) => r.toLowerCase() === to.toLowerCase()) && subject.test(m.subject),
          );
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail to ${to} matching ${subject}`);
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
