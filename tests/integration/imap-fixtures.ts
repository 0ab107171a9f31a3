// The stack of the IMAP reply tests (ADR 285): a real SMTP inbox, the loopback IMAP stand-in and a
// test server polling it only when drained, the team told about new requests (and so replies).
import { afterAll, beforeAll, expect } from "vitest";
import { solvedAltcha } from "../altcha-solution";
import { type ImapStandIn, startImapStandIn } from "../imap-stand-in";
import { startSmtpInbox } from "../smtp-inbox";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

export const IMAP_INBOX = "antworten@example.com";

export type ImapStack = {
  server: TestServer;
  smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
  imap: ImapStandIn;
  token: string;
};

/** Starts the stack before the file's tests and stops it after; its parts are set in beforeAll. */
export function imapStack(pass: string) {
  const s = {} as ImapStack;
  beforeAll(async () => {
    s.smtp = await startSmtpInbox();
    s.imap = await startImapStandIn({ user: IMAP_INBOX, pass });
    s.server = await startTestServer({
      SMTP_URL: s.smtp.url,
      IMAP_URL: s.imap.url(),
      // Only the drains poll (the background tick would race them).
      IMAP_POLL_SECONDS: "3600",
      SUBMISSION_RATE_LIMIT: "1000/1h",
      TRANSCRIPTION_API_URL: undefined,
    });
    s.token = await s.server.adminToken();
    // The new-request channel tells the team about replies too.
    const patched = await s.server.fetch("/api/configuration", {
      method: "PATCH",
      token: s.token,
      json: { emailNotifications: { enabled: true, externalEmails: ["team@example.com"] } },
    });
    expect(patched.status).toBe(200);
  });
  afterAll(async () => {
    await s.server.close();
    await s.smtp.close();
    await s.imap.close();
    delete process.env.IMAP_URL;
  });
  return s;
}

/** A visitor's request (with a solved proof of work, so it is not quarantined). */
export async function submitLead(s: ImapStack, fields: Record<string, string> = {}) {
  const res = await s.server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ ...fields, altcha: await solvedAltcha(s.server.url) })),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; email: string; name: string };
}

/** A lead with one message sent to them; the mail as the lead received it. */
export async function leadWithMessage(s: ImapStack, email: string, subject: string) {
  const lead = await submitLead(s, { email });
  const res = await s.server.fetch(`/api/admin/requests/${lead.id}/messages`, {
    method: "POST",
    token: s.token,
    json: { subject, body: "Wie viele Standorte habt ihr?" },
  });
  expect(res.status).toBe(201);
  await s.server.drainOutbox();
  return { lead, mail: await s.smtp.waitFor(email, new RegExp(subject)) };
}

/** A mail as it lies in the inbox (headers, a blank line, the body). */
export const rfc822 = (h: Record<string, string>, body: string) =>
  `${Object.entries({ Date: new Date().toUTCString(), "MIME-Version": "1.0", ...h })
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n\n${body}\n`;
