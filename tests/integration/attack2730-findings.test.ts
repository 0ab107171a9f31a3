// Attack review attack2730 (issues 27 "Then" passkeys, 30 messages and IMAP replies): each test
// here FAILS on the code under review and proves one defect. Keep them until the fix lands; the fix
// makes them pass (do not weaken them).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solvedAltcha } from "../altcha-solution";
import { type ImapStandIn, startImapStandIn } from "../imap-stand-in";
import { startSmtpInbox } from "../smtp-inbox";
import { testDb } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
let imap: ImapStandIn;
let token: string;
const INBOX = "antworten@example.com";

beforeAll(async () => {
  smtp = await startSmtpInbox();
  imap = await startImapStandIn({ user: INBOX, pass: "geheim" });
  server = await startTestServer({
    SMTP_URL: smtp.url,
    IMAP_URL: imap.url(),
    // Only the drains poll.
    IMAP_POLL_SECONDS: "3600",
    SUBMISSION_RATE_LIMIT: "1000/1h",
    TRANSCRIPTION_API_URL: undefined,
  });
  token = await server.adminToken();
  const patched = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: { emailNotifications: { enabled: true, externalEmails: ["team@example.com"] } },
  });
  expect(patched.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await smtp.close();
  await imap.close();
  delete process.env.IMAP_URL;
});

async function submit(fields: Record<string, string> = {}) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ ...fields, altcha: await solvedAltcha(server.url) })),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; email: string; name: string };
}

async function leadWithMessage(email: string, subject: string) {
  const lead = await submit({ email });
  const res = await server.fetch(`/api/admin/requests/${lead.id}/messages`, {
    method: "POST",
    token,
    json: { subject, body: "Wie viele Standorte habt ihr?" },
  });
  expect(res.status).toBe(201);
  await server.drainOutbox();
  return { lead, mail: await smtp.waitFor(email, new RegExp(subject)) };
}

const rfc822 = (h: Record<string, string>, body: string) =>
  `${Object.entries({ Date: new Date().toUTCString(), "MIME-Version": "1.0", ...h })
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n\n${body}\n`;

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
    const patched = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { branding: { name: "Müller Solar GmbH" } },
    });
    expect(patched.status).toBe(200);
    try {
      const { mail } = await leadWithMessage("brand.lead@example.com", "Signatur-Probe");
      // The sender's display name already follows the brand ...
      expect(mail.from.name).toBe("Müller Solar GmbH");
      // ... the signature under the admin's text does not (BRAND_NAME constant in messages.server.ts).
      expect(mail.text).toContain("Viele Grüße\nMüller Solar GmbH");
      expect(mail.text).not.toContain("Anfrage-Portal");
    } finally {
      await server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { branding: { name: null } },
      });
    }
  });
});

describe("attack2730: IMAP replies (issue 30 Then)", () => {
  it("a flood of mails to one plus-address does not mail the team once per mail", async () => {
    const { lead, mail } = await leadWithMessage("flood.lead@example.com", "Rückfrage Flut");
    // Whoever holds the plus-address (any sender is accepted) sends 40 mails of ~9 kB.
    for (let i = 0; i < 40; i++)
      imap.add(
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
    await server.testHooks.drainImapReplies();
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
    const { lead, mail } = await leadWithMessage("cc.lead@example.com", "Rückfrage Kopie");
    // The admin is in Cc of the message; answering the lead from their mail program with
    // "Allen antworten" puts the plus-address (Reply-To of the thread) into Cc again.
    expect(mail.cc).toHaveLength(1);
    const adminEmail = mail.cc[0] as string;
    imap.add(
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
    await server.testHooks.drainImapReplies();
    const thread = (
      (await (await server.fetch(`/api/admin/requests/${lead.id}`, { token })).json()) as {
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
      const res = await server.fetch("/api/admin/auth/passkey/options", {
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
