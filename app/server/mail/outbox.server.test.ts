import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpInbox } from "~tests/smtp-inbox";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let failNext = false;
let slowMs = 0;

beforeAll(async () => {
  inbox = await startSmtpInbox({
    delayMs: () => slowMs,
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
      kind: "two-factor-notice",
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

  it("drainOutbox waits for a slow worker's batch and sends every due mail before resolving", async () => {
    const { queueMail, getOutboxMail, startMailWorker, stopMailWorker } = await import(
      "./outbox.server"
    );
    const { drainOutbox } = (await import("../platform/test-hooks.server")).testHooks;
    slowMs = 400;
    try {
      const queued = ["a", "b", "c"].map((n) =>
        queueMail({
          to: `${n}@langsam.example`,
          subject: "Langsam",
          kind: "two-factor-notice",
          content: { paragraphs: ["x"] },
        }),
      );
      startMailWorker(60_000);
      // Let the worker's first tick start its batch, so drainOutbox has one to wait for.
      await new Promise((r) => setImmediate(r));
      failNext = true; // one delivery fails: drain must still end (the mail waits for its backoff)
      await drainOutbox();
      const states = queued.map((q) => getOutboxMail(q.id)?.status);
      expect(states.filter((s) => s === "sent")).toHaveLength(2);
      expect(states.filter((s) => s === "pending")).toHaveLength(1);
      const delivered = inbox.mails.filter((m) => m.to[0]?.endsWith("@langsam.example"));
      expect(delivered).toHaveLength(2);
      expect(await drainOutbox()).toBe(0);
    } finally {
      slowMs = 0;
      await stopMailWorker();
    }
  });

  it("a scheduled mail waits for its send-after time, is not retried early, and sends its invite", async () => {
    const { queueMail, processOutbox, getOutboxMail, retryMail } = await import("./outbox.server");
    // Earlier tests' mails waiting for their backoff go out first (a fake clock an hour ahead).
    await processOutbox(new Date(Date.now() + 3600_000));
    const sendAfter = new Date(Date.now() + 3 * 86400_000);
    const queued = queueMail({
      to: "termin@example.com",
      subject: "Erinnerung",
      kind: "two-factor-notice",
      content: { paragraphs: ["Morgen"] },
      sendAfter,
      attachments: [
        {
          filename: "demo.ics",
          contentType: "text/calendar; charset=utf-8; method=REQUEST",
          content: "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n",
          method: "REQUEST",
        },
      ],
    });
    expect(await processOutbox()).toBe(0);
    expect(retryMail(queued.id)).toBe(false);
    expect(await processOutbox(new Date(sendAfter.getTime() - 1))).toBe(0);
    expect(await processOutbox(sendAfter)).toBe(1);
    const mail = inbox.mails.at(-1);
    expect(mail?.to).toEqual(["termin@example.com"]);
    const part = mail?.attachments.find((a) => a.mimeType === "text/calendar");
    expect(part?.method).toBe("REQUEST");
    expect(part?.content).toContain("METHOD:REQUEST");
    expect(getOutboxMail(queued.id)?.attachments).toBeNull();
  });

  it("refuses attachments over the bound", async () => {
    const { queueMail, MAX_ATTACHMENT_BYTES } = await import("./outbox.server");
    expect(() =>
      queueMail({
        to: "x@example.com",
        subject: "Zu groß",
        kind: "two-factor-notice",
        content: { paragraphs: ["x"] },
        attachments: [
          {
            filename: "a.txt",
            contentType: "text/plain",
            content: "x".repeat(MAX_ATTACHMENT_BYTES + 1),
          },
        ],
      }),
    ).toThrow();
  });

  it("wipes an unsent link mail when its links expire: 7 days by default, or its own time", async () => {
    const { queueMail, wipeExpiredSecrets, getOutboxMail } = await import("./outbox.server");
    const content = {
      paragraphs: ["Dein Termin"],
      action: { label: "Verwalten", url: "http://localhost/termin/verwalten?token=abc.def" },
    };
    const start = new Date(Date.now() + 30 * 86400_000);
    // A reminder for an appointment in 30 days keeps its link past the 7-day default…
    const reminder = queueMail({
      to: "a@example.com",
      subject: "Erinnerung",
      kind: "two-factor-notice",
      content,
      sendAfter: new Date(start.getTime() - 86400_000),
      linksExpireAt: start,
    });
    const plain = queueMail({
      to: "b@example.com",
      subject: "Link",
      kind: "two-factor-notice",
      content,
    });
    wipeExpiredSecrets(new Date(Date.now() + 8 * 86400_000));
    expect(getOutboxMail(reminder.id)?.masked).toBe(false);
    expect(getOutboxMail(plain.id)?.masked).toBe(true);
    // …until the appointment begins.
    wipeExpiredSecrets(start);
    expect(getOutboxMail(reminder.id)?.masked).toBe(true);
    expect(getOutboxMail(reminder.id)?.status).toBe("failed");
  });
});
