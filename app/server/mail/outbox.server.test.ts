import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Received = { to: string[]; subject: string; text: string };
const received: Received[] = [];
let smtp: SMTPServer;
let failNext = false;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (failNext) {
          failNext = false;
          callback(new Error("Postfach voll"));
          return;
        }
        const mail = await PostalMime.parse(Buffer.concat(chunks));
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: mail.subject ?? "",
          text: mail.text ?? "",
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  const { stopMailWorker } = await import("./outbox.server");
  await stopMailWorker();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("outbox", () => {
  it("sends queued mails over SMTP and masks token links in the stored copy", async () => {
    const { queueMail, processOutbox, getOutboxMail } = await import("./outbox.server");
    const queued = queueMail({
      to: "neu@example.com",
      subject: "Einladung",
      content: {
        paragraphs: ["Bitte registrieren Sie sich."],
        action: { label: "Registrieren", url: "http://localhost/admin/register?token=geheim123" },
      },
      kind: "invitation",
    });
    expect(queued.status).toBe("pending");
    expect(await processOutbox()).toBe(1);
    expect(received.at(-1)?.to).toEqual(["neu@example.com"]);
    expect(received.at(-1)?.text).toContain("token=geheim123");
    const stored = getOutboxMail(queued.id);
    expect(stored?.status).toBe("sent");
    expect(stored?.text).not.toContain("geheim123");
    expect(stored?.html).not.toContain("geheim123");
    expect(stored?.masked).toBe(true);
  });

  it("keeps a failed mail pending with backoff, and retry sends it again", async () => {
    const { queueMail, processOutbox, getOutboxMail, retryMail } = await import("./outbox.server");
    const queued = queueMail({
      to: "x@example.com",
      subject: "Test",
      content: { paragraphs: ["Hallo"] },
    });
    failNext = true;
    expect(await processOutbox()).toBe(0);
    const afterFailure = getOutboxMail(queued.id);
    expect(afterFailure?.status).toBe("pending");
    expect(afterFailure?.attempts).toBe(1);
    expect(afterFailure?.lastError).toContain("Postfach voll");
    expect(afterFailure!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await processOutbox()).toBe(0);
    expect(retryMail(queued.id)).toBe(true);
    expect(await processOutbox()).toBe(1);
    expect(getOutboxMail(queued.id)?.status).toBe("sent");
  });
});
