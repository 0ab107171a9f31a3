// Replies by IMAP (ADR 285) against a loopback IMAP stand-in (tests/imap-stand-in.ts)
// and a real SMTP inbox: with IMAP_URL set, a message to the lead has the inbox's signed
// plus-address as Reply-To and the admin in Cc; the poller files a reply by that plus-address (any
// sender) or by In-Reply-To (the lead's address only) as `direction: "in"`, marks it \Seen,
// notifies the admins and shows "Neue Antwort" until an admin opens the request. Forged
// plus-addresses and unmatched mail are ignored and never stored; an unreachable server is retried
// with backoff. Export and erasure cover replies; webhooks/CSV never see them.
import { and, eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { jobRuns, mailOutbox, requestMessages } from "~db/schema";
import { IMAP_INBOX, imapStack, leadWithMessage, rfc822 } from "./imap-fixtures";

const s = imapStack("p@ss:wort/geheim");

const threadOf = async (id: number) =>
  (
    (await (await s.server.fetch(`/api/admin/requests/${id}`, { token: s.token })).json()) as {
      messages: { direction: string; subject: string; body: string; status: string }[];
    }
  ).messages;

const stored = (id: number) =>
  db().select().from(requestMessages).where(eq(requestMessages.requestId, id)).all();

describe("replies by IMAP", () => {
  it("sends with the signed plus-address as Reply-To, the admin in Cc and a stored Message-ID", async () => {
    const { lead, mail } = await leadWithMessage(s, "paula.plus@example.com", "Rückfrage Plus");
    const me = (await (await s.server.fetch("/api/admin/account", { token: s.token })).json()) as {
      email?: string;
      admin?: { email: string };
    };
    const adminEmail = me.email ?? me.admin?.email;
    expect(adminEmail).toBeTruthy();
    // The admin gets the copy (Cc), the lead the mail.
    expect(mail.to).toEqual(["paula.plus@example.com", adminEmail]);
    expect(mail.cc).toEqual([adminEmail]);
    expect(mail.replyTo).toHaveLength(1);
    expect(mail.replyTo[0]).toMatch(
      new RegExp(`^antworten\\+r${lead.id}\\.[0-9a-f]{16}@example\\.com$`),
    );
    expect(mail.messageId).toMatch(/^<anfrage\.\d+\.\d+@/);
    expect(stored(lead.id)[0]?.messageId).toBe(mail.messageId);
  });

  it("files a reply to the plus-address (from any sender) in the thread, marks it \\Seen, notifies, shows 'Neue Antwort'", async () => {
    const { lead, mail } = await leadWithMessage(s, "rita.reply@example.com", "Rückfrage Rita");
    const uid = s.imap.add(
      rfc822(
        {
          From: "Rita Privat <rita.privat@example.org>",
          To: mail.replyTo[0] as string,
          Subject: "Re: Rückfrage Rita",
          "Message-ID": "<antwort-rita@example.org>",
          "Content-Type": "text/html; charset=utf-8",
        },
        "<p>Wir haben <b>drei</b> Standorte.</p>",
      ),
    );
    expect(await s.server.testHooks.drainImapReplies()).toBe(1);
    const thread = await threadOf(lead.id);
    expect(thread.at(-1)).toMatchObject({
      direction: "in",
      subject: "Re: Rückfrage Rita",
      status: "received",
    });
    expect(thread.at(-1)?.body).toContain("Wir haben drei Standorte.");
    expect(s.imap.messages.find((m) => m.uid === uid)?.flags.has("\\Seen")).toBe(true);
    await s.server.drainOutbox();
    await s.smtp.waitFor("team@example.com", /Neue Antwort zu Anfrage/);

    // "Neue Antwort" in the list until an admin opens the request.
    const cookie = await s.server.adminCookie();
    const list = await (await s.server.fetch("/admin/requests", { headers: { cookie } })).text();
    expect(rowOf(list, lead.id)).toContain("Neue Antwort");
    const view = await (
      await s.server.fetch(`/admin/requests?requestId=${lead.id}`, { headers: { cookie } })
    ).text();
    expect(view).toContain("Antwort vom Kunden");
    const after = await (await s.server.fetch("/admin/requests", { headers: { cookie } })).text();
    expect(rowOf(after, lead.id)).not.toContain("Neue Antwort");

    // Polled again: nothing new, nothing twice.
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    expect(stored(lead.id).filter((m) => m.direction === "in")).toHaveLength(1);
  });

  it("files a reply by In-Reply-To from the lead's address; the same header from anyone else is ignored", async () => {
    const { lead, mail } = await leadWithMessage(s, "ida.inreply@example.com", "Rückfrage Ida");
    const reply = (from: string, id: string) =>
      s.imap.add(
        rfc822(
          {
            From: from,
            To: IMAP_INBOX,
            Subject: "AW: Rückfrage Ida",
            "Message-ID": id,
            "In-Reply-To": mail.messageId,
            References: `<irgendwas@example.net> ${mail.messageId}`,
          },
          "Zwei Standorte.\n\n> Wie viele Standorte habt ihr?",
        ),
      );
    const fremd = reply("Mallory <mallory@example.net>", "<fremd@example.net>");
    const echt = reply("Ida <IDA.InReply@example.com>", "<echt@example.com>");
    expect(await s.server.testHooks.drainImapReplies()).toBe(1);
    const incoming = stored(lead.id).filter((m) => m.direction === "in");
    expect(incoming.map((m) => m.messageId)).toEqual(["<echt@example.com>"]);
    expect(s.imap.messages.find((m) => m.uid === echt)?.flags.has("\\Seen")).toBe(true);
    expect(s.imap.messages.find((m) => m.uid === fremd)?.flags.has("\\Seen")).toBe(false);
    expect(JSON.stringify(db().select().from(requestMessages).all())).not.toContain("fremd@");
  });

  it("ignores a forged plus-address and unmatched mail: never stored, left unread", async () => {
    const { lead, mail } = await leadWithMessage(s, "fiona.forged@example.com", "Rückfrage Fiona");
    const before = db().select().from(requestMessages).all().length;
    const forged = (mail.replyTo[0] as string).replace(
      /\.([0-9a-f]{16})@/,
      (_, sig: string) => `.${sig.slice(0, 15)}${sig.endsWith("0") ? "1" : "0"}@`,
    );
    const uids = [
      s.imap.add(
        rfc822(
          { From: "x@example.net", To: forged, Subject: "Gefälscht", "Message-ID": "<f1@x>" },
          "Fälschung",
        ),
      ),
      s.imap.add(
        rfc822(
          {
            From: "x@example.net",
            To: `antworten+r${lead.id}.0000000000000000@example.com`,
            Subject: "Geraten",
            "Message-ID": "<f2@x>",
          },
          "Geraten",
        ),
      ),
      s.imap.add(
        rfc822(
          {
            From: "news@example.net",
            To: IMAP_INBOX,
            Subject: "Newsletter",
            "Message-ID": "<n1@x>",
          },
          "Werbung",
        ),
      ),
    ];
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    expect(db().select().from(requestMessages).all()).toHaveLength(before);
    for (const uid of uids)
      expect(s.imap.messages.find((m) => m.uid === uid)?.flags.has("\\Seen")).toBe(false);
    // Looked at once: the next poll starts after them.
    const fetched = s.imap.commands.filter((c) => /^UID FETCH/i.test(c)).length;
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    expect(s.imap.commands.filter((c) => /^UID FETCH/i.test(c)).length).toBe(fetched);
  });

  it("skips mail over 1 MB without reading it", async () => {
    const { lead, mail } = await leadWithMessage(s, "bea.big@example.com", "Rückfrage Bea");
    const uid = s.imap.add(
      rfc822(
        {
          From: "bea.big@example.com",
          To: mail.replyTo[0] as string,
          Subject: "Groß",
          "Message-ID": "<big@x>",
        },
        "x".repeat(1024 * 1024 + 10),
      ),
    );
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    expect(stored(lead.id).filter((m) => m.direction === "in")).toEqual([]);
    const reads = s.imap.commands.filter((c) => c.startsWith(`UID FETCH ${uid} `));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((c) => /BODY/i.test(c))).toEqual([]);
  });

  it("retries an unreachable server with backoff, then files what arrived meanwhile", async () => {
    const { lead, mail } = await leadWithMessage(s, "dora.down@example.com", "Rückfrage Dora");
    await s.imap.stop();
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    const state = () =>
      db().select().from(jobRuns).where(eq(jobRuns.name, "imap-replies")).get()?.result as {
        failures: number;
        retryAt: number | null;
      };
    expect(state().failures).toBe(1);
    expect(state().retryAt).toBeGreaterThan(Date.now() + 20_000);
    await s.imap.start();
    s.imap.add(
      rfc822(
        {
          From: "dora.down@example.com",
          To: mail.replyTo[0] as string,
          Subject: "Re: Dora",
          "Message-ID": "<dora@x>",
        },
        "Jetzt geht's.",
      ),
    );
    // Before its backoff has passed nothing is tried; after it, the reply is filed.
    const logins = s.imap.logins;
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    expect(s.imap.logins).toBe(logins);
    expect(await s.server.testHooks.drainImapReplies(new Date(Date.now() + 31_000))).toBe(1);
    expect(state().failures).toBe(0);
    expect(stored(lead.id).filter((m) => m.direction === "in")).toHaveLength(1);
  });

  it("puts replies into the person's export; erasure removes them; never in the CSV", async () => {
    const { lead, mail } = await leadWithMessage(s, "erna.export@example.com", "Rückfrage Erna");
    s.imap.add(
      rfc822(
        {
          From: "erna.export@example.com",
          To: mail.replyTo[0] as string,
          Subject: "Re: Erna",
          "Message-ID": "<erna@x>",
        },
        "Antwort für den Export.",
      ),
    );
    expect(await s.server.testHooks.drainImapReplies()).toBe(1);
    const res = await s.server.fetch(`/api/admin/requests/${lead.id}/export`, { token: s.token });
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(new TextDecoder().decode(zip["daten.json"]));
    expect(data.anfragen[0].nachrichten).toMatchObject([
      { direction: "out" },
      { direction: "in", body: "Antwort für den Export." },
    ]);
    const csv = await (
      await s.server.fetch("/api/admin/requests/export.csv", { token: s.token })
    ).text();
    expect(csv).not.toContain("Antwort für den Export");
    const { eraseRequest } = await import("~/server/privacy/erasure.server");
    expect((await eraseRequest(lead.id, "anonymize")).ok).toBe(true);
    expect(stored(lead.id)).toEqual([]);
    // A late reply to the erased request is not filed.
    s.imap.add(
      rfc822(
        {
          From: "erna.export@example.com",
          To: mail.replyTo[0] as string,
          Subject: "Re: Erna",
          "Message-ID": "<erna2@x>",
        },
        "Noch was.",
      ),
    );
    expect(await s.server.testHooks.drainImapReplies()).toBe(0);
    expect(stored(lead.id)).toEqual([]);
  });

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
    const notices = db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.requestId, lead.id), eq(mailOutbox.kind, "reply-notice")))
      .all();
    // While the request already carries an unread reply, one notice is enough.
    expect(notices.length).toBeLessThanOrEqual(1);
    // At most 20 replies per request and day are stored; the rest stay in the inbox.
    expect(stored(lead.id).filter((m) => m.direction === "in")).toHaveLength(20);
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
    // Not shown as "Antwort vom Kunden", and the team is not told the lead answered.
    expect(
      (await threadOf(lead.id)).filter(
        (m) => m.direction === "in" && m.body.includes("Admins aus Outlook"),
      ),
    ).toHaveLength(0);
  });
});

/** The list row of request `id` in the page's HTML. */
function rowOf(html: string, id: number) {
  const start = html.indexOf(`data-request-id="${id}"`);
  expect(start).toBeGreaterThan(-1);
  const next = html.indexOf("data-request-id=", start + 20);
  return html.slice(start, next > 0 ? next : undefined);
}
