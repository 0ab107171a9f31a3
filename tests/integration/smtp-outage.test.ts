// SMTP is down while 20 requests arrive; once it is back, every notification (and every visitor's
// receipt) is delivered exactly once.
// The outbox is driven deterministically: drainOutbox() flushes, and the retry backoff is "waited out"
// by making the pending mails due in the database (no sleeps).
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { RECEIPT_SUBJECT } from "~/server/requests/receipt.server";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { testDb } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

let port: number;
let server: TestServer;
beforeAll(async () => {
  // Nothing listens on the SMTP port yet: connections are refused (the outage).
  port = await freePort();
  server = await startTestServer({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    SUBMISSION_RATE_LIMIT: "100/1h",
  });
  saveConfiguration({
    ...DEFAULT_CONFIGURATION,
    emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["team@example.com"] },
  });
});
afterAll(async () => {
  await server.close();
  delete process.env.SMTP_URL;
  delete process.env.SUBMISSION_RATE_LIMIT;
});

type Row = { status: string; attempts: number; n: number };
function outbox(): Row[] {
  const db = testDb();
  try {
    return db
      .prepare(
        "SELECT status, attempts, count(*) AS n FROM mail_outbox GROUP BY status, attempts ORDER BY status, attempts",
      )
      .all() as Row[];
  } finally {
    db.close();
  }
}

/** Time passes: every pending mail's backoff is over. */
function makePendingDue() {
  const db = testDb();
  try {
    db.prepare("UPDATE mail_outbox SET next_attempt_at = 0 WHERE status = 'pending'").run();
  } finally {
    db.close();
  }
}

describe("SMTP outage", () => {
  it("keeps 20 notifications (and 20 receipts) through the outage and delivers each exactly once afterwards", async () => {
    const ids: number[] = [];
    const visitors: string[] = [];
    // Twenty solved proofs of work (ADR 250), solved side by side before the submissions.
    const solutions = await Promise.all(Array.from({ length: 20 }, () => solvedAltcha(server.url)));
    for (let i = 0; i < 20; i++) {
      const fields = validFields({ name: `Kundin ${i}`, altcha: solutions[i] as string });
      visitors.push(fields.email);
      const res = await server.fetch("/api/requests", {
        method: "POST",
        body: multipart(fields),
      });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }

    // Two rounds of retries during the outage: nothing sent, nothing lost, nothing given up.
    expect(await server.drainOutbox()).toBe(0);
    makePendingDue();
    expect(await server.drainOutbox()).toBe(0);
    // 20 notifications + 20 receipts (20 different visitor addresses, one receipt each).
    expect(outbox()).toEqual([{ status: "pending", attempts: 2, n: 40 }]);

    // SMTP is back on the same port.
    const inbox = await startSmtpInbox({ port });
    try {
      makePendingDue();
      expect(await server.drainOutbox()).toBe(40);
      expect(await server.drainOutbox()).toBe(0);
      expect(outbox()).toEqual([{ status: "sent", attempts: 3, n: 40 }]);

      expect(inbox.mails).toHaveLength(40);
      const notifications = inbox.mails.filter((m) => m.subject.startsWith("Neue Anfrage"));
      const receipts = inbox.mails.filter((m) => m.subject === RECEIPT_SUBJECT);
      expect(notifications).toHaveLength(20);
      expect(receipts.map((m) => m.to.join()).sort()).toEqual([...visitors].sort());
      const subjects = notifications.map((m) => m.subject).sort();
      const expected = ids
        .map((id, i) => `Neue Anfrage #${String(id).padStart(4, "0")} von Kundin ${i}`)
        .sort();
      expect(subjects).toEqual(expected);
      expect(notifications.every((m) => m.to.join() === "team@example.com")).toBe(true);
    } finally {
      await inbox.close();
    }
  }, 60_000);
});
