// Findings of the attack review of issues 27 ("Then": passkeys) and 30 (messages, IMAP replies):
// each test failed on the reviewed code and names the defect it guards against (ADR 292).
import { describe, expect, it } from "vitest";
import { testDb } from "./auth-helpers";
import { imapStack, leadWithMessage, rfc822 } from "./imap-fixtures";

const s = imapStack("geheim");

const count = (sql: string, ...args: unknown[]) => {
  const db = testDb();
  try {
    return (db.prepare(sql).get(...args) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("attack2730: messages to the lead (issue 30)", () => {
  it("signs the message with the configured brand name, not the product's default", async () => {
    const patched = await s.server.fetch("/api/configuration", {
      method: "PATCH",
      token: s.token,
      json: { branding: { name: "Müller Solar GmbH" } },
    });
    expect(patched.status).toBe(200);
    try {
      const { mail } = await leadWithMessage(s, "brand.lead@example.com", "Signatur-Probe");
      // The sender's display name already follows the brand ...
      expect(mail.from.name).toBe("Müller Solar GmbH");
      // ... the signature under the admin's text does not (BRAND_NAME constant in messages.server.ts).
      expect(mail.text).toContain("Viele Grüße\nMüller Solar GmbH");
      expect(mail.text).not.toContain("Anfrage-Portal");
    } finally {
      await s.server.fetch("/api/configuration", {
        method: "PATCH",
        token: s.token,
        json: { branding: { name: null } },
      });
    }
  });
});

describe("attack2730: IMAP replies (issue 30 Then)", () => {
  it("a flood of mails to one plus-address does not mail the team once per mail", async () => {
    const { lead, mail } = await leadWithMessage(s, "flood.lead@example.com", "Rückfrage Flut");
    // Whoever holds the plus-address (any sender is accepted) sends 40 mails of ~9 kB.
    for (let i = 0; i < 40; i++)
      s.imap.add(
        rfc822(
          {
            From: `spam${i}@example.net`,
            To: mail.replyTo[0] as string,
            Subject: `Flut ${i}`,
            "Message-ID": `<flut-${i}@example.net>`,
          },
          "x".repeat(9000),
        ),
      );
    await s.server.testHooks.drainImapReplies();
    const notices = count(
      "SELECT count(*) AS n FROM mail_outbox WHERE request_id = ? AND kind = 'reply-notice'",
      lead.id,
    );
    // Today: 40 stored replies and 40 "Neue Antwort zu Anfrage" mails to every team recipient.
    // While the request already carries an unread reply, one notice is enough.
    expect(notices).toBeLessThanOrEqual(1);
    // fix2730: at most 20 replies per request and day are stored; the rest stay in the inbox.
    expect(
      count(
        "SELECT count(*) AS n FROM request_messages WHERE request_id = ? AND direction = 'in'",
        lead.id,
      ),
    ).toBe(20);
  });

  it("the admin's own reply-all (Cc: the plus-address) is not filed as the customer's answer", async () => {
    const { lead, mail } = await leadWithMessage(s, "cc.lead@example.com", "Rückfrage Kopie");
    // The admin is in Cc of the message; answering the lead from their mail program with
    // "Allen antworten" puts the plus-address (Reply-To of the thread) into Cc again.
    expect(mail.cc).toHaveLength(1);
    const adminEmail = mail.cc[0] as string;
    s.imap.add(
      rfc822(
        {
          From: adminEmail,
          To: "cc.lead@example.com",
          Cc: mail.replyTo[0] as string,
          Subject: "AW: Rückfrage Kopie",
          "Message-ID": "<admin-aus-outlook@team.example>",
        },
        "Interne Antwort des Admins aus Outlook",
      ),
    );
    await s.server.testHooks.drainImapReplies();
    const thread = (
      (await (
        await s.server.fetch(`/api/admin/requests/${lead.id}`, { token: s.token })
      ).json()) as {
        messages: { direction: string; body: string }[];
      }
    ).messages;
    // Today it is shown as "Antwort vom Kunden · von <lead name>" and the team is told the lead answered.
    expect(
      thread.filter((m) => m.direction === "in" && m.body.includes("Admins aus Outlook")),
    ).toHaveLength(0);
  });
});

describe("attack2730: passkey login options (issue 27 Then)", () => {
  it("POST /api/admin/auth/passkey/options is rate limited per client (no unbounded challenge rows)", async () => {
    const before = count("SELECT count(*) AS n FROM passkey_challenges");
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await s.server.fetch("/api/admin/auth/passkey/options", {
        method: "POST",
        json: {},
      });
      statuses.push(res.status);
      if (res.status === 429 && !refused) refused = res;
      else await res.body?.cancel();
    }
    // fix2730: the refusal says when to come back, in German.
    if (!refused) throw new Error("no 429");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Zu viele Versuche/);
    const grown = count("SELECT count(*) AS n FROM passkey_challenges") - before;
    // Today: 200 × 200, and 200 new rows that live 5 minutes — an anonymous client writes to the
    // database as fast as it can send.
    expect(statuses).toContain(429);
    expect(grown).toBeLessThan(200);
  });
});
