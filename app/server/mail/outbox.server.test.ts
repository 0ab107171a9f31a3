import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpInbox } from "~tests/smtp-inbox";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let failNext = false;

beforeAll(async () => {
  inbox = await startSmtpInbox({
    reject: () => {
      if (!failNext) return null;
      failNext = false;
      return new Error("Postfach voll");
    },
  });
  process.env.SMTP_URL = inbox.url;
});
afterAll(async () => {
  const { stopMailWorker } = await import("./outbox.server");
  await stopMailWorker();
  await inbox.close();
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
    expect(inbox.mails.at(-1)?.to).toEqual(["neu@example.com"]);
    expect(inbox.mails.at(-1)?.text).toContain("token=geheim123");
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
