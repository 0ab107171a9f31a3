import { eq } from "drizzle-orm";
import type { ImapFlow } from "imapflow";
import { jobRuns } from "~db/schema";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { backoffMs, outboxWorker } from "../platform/outbox-retry.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { fileReply, type IncomingMail } from "./file-reply.server";
import { type ImapInbox, imapInbox, repliesConfigured } from "./reply-address.server";

/**
 * The IMAP poller (ADR 285): every IMAP_POLL_SECONDS it reads the inbox's new mail
 * (UIDs above the last one seen, remembered with the mailbox's UIDVALIDITY in job_runs, so a
 * restart resumes where it stopped), files replies under their request and marks them \Seen;
 * everything else stays untouched and unstored. Mails over IMAP_MAX_BYTES are skipped unread.
 * An unreachable server is retried with the outboxes' backoff (30 s, 1 min, 2 min … 1 h).
 */
export const IMAP_MAX_BYTES = 1024 * 1024;
const BATCH = 50;
const STATE = "imap-replies";

type State = { uidValidity: string; lastUid: number; failures: number; retryAt: number | null };
const FRESH: State = { uidValidity: "", lastUid: 0, failures: 0, retryAt: null };

function readState(): State {
  const row = db().select().from(jobRuns).where(eq(jobRuns.name, STATE)).get();
  return { ...FRESH, ...((row?.result as Partial<State> | null) ?? {}) };
}

function writeState(state: State, now: Date) {
  db()
    .insert(jobRuns)
    .values({ name: STATE, lastRunAt: now, result: state })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: now, result: state } })
    .run();
}

async function connect(inbox: ImapInbox): Promise<ImapFlow> {
  // imapflow loads with the first poll, not at boot (like nodemailer, ADR 166).
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow({
    host: inbox.host,
    port: inbox.port,
    secure: inbox.secure,
    auth: { user: inbox.user, pass: inbox.pass },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  // A dropped connection also surfaces as the rejected command; the event must not crash the process.
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** One poll: up to BATCH new mails of the inbox; `attempted` = mails looked at. */
async function pollInbox(now: Date): Promise<{ attempted: number; sent: number }> {
  const inbox = imapInbox();
  if (!inbox) return { attempted: 0, sent: 0 };
  const state = readState();
  if (state.retryAt && state.retryAt > now.getTime()) return { attempted: 0, sent: 0 };
  let client: ImapFlow | undefined;
  try {
    client = await connect(inbox);
    const box = await client.mailboxOpen(inbox.mailbox);
    const uidValidity = String(box.uidValidity);
    // A new mailbox (or one recreated: new UIDVALIDITY) starts with its unread mail.
    let lastUid = state.uidValidity === uidValidity ? state.lastUid : 0;
    const found =
      (await client.search(lastUid ? { uid: `${lastUid + 1}:*` } : { seen: false }, {
        uid: true,
      })) || [];
    // `n:*` also answers the last message when it is older than n.
    const fresh = found
      .filter((uid) => uid > lastUid)
      .sort((a, b) => a - b)
      .slice(0, BATCH);
    let filed = 0;
    for (const uid of fresh) {
      if (await fileOne(client, inbox, uidValidity, uid)) filed++;
      lastUid = uid;
      writeState({ uidValidity, lastUid, failures: 0, retryAt: null }, now);
    }
    if (!fresh.length) writeState({ uidValidity, lastUid, failures: 0, retryAt: null }, now);
    await client.logout();
    return { attempted: fresh.length, sent: filed };
  } catch (error) {
    client?.close();
    const failures = state.failures + 1;
    writeState({ ...state, failures, retryAt: now.getTime() + backoffMs(failures) }, now);
    // Host and reason only: never the URL (it carries the password).
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`IMAP-Postfach ${inbox.host} nicht abrufbar (Versuch ${failures}): ${reason}`);
    return { attempted: 0, sent: 0 };
  }
}

/** Reads one mail (when small enough), files it when it is a reply; true when filed. */
async function fileOne(client: ImapFlow, inbox: ImapInbox, uidValidity: string, uid: number) {
  const meta = await client.fetchOne(String(uid), { uid: true, size: true }, { uid: true });
  if (!meta || (meta.size ?? 0) > IMAP_MAX_BYTES) return false;
  const full = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
  const source = full ? full.source : undefined;
  if (!source || source.length > IMAP_MAX_BYTES) return false;
  const mail = await parseMail(source, `<imap.${uidValidity}.${uid}@${inbox.address}>`);
  if (!(await fileReply(mail))) return false;
  await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
  return true;
}

const addresses = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((a: { value?: { address?: string }[] }) =>
    (a.value ?? []).map((v) => v.address ?? "").filter(Boolean),
  );
};

/** mailparser: the text (HTML converted where there is no text part); attachments dropped. */
export async function parseMail(source: Buffer, fallbackId: string): Promise<IncomingMail> {
  const { simpleParser } = await import("mailparser");
  const parsed = await simpleParser(source, {
    skipImageLinks: true,
    skipTextToHtml: true,
    maxHtmlLengthToParse: IMAP_MAX_BYTES,
  });
  const references = Array.isArray(parsed.references)
    ? parsed.references
    : parsed.references
      ? [parsed.references]
      : [];
  const deliveredTo = parsed.headers.get("delivered-to");
  return {
    messageId: parsed.messageId ?? fallbackId,
    inReplyTo: [parsed.inReplyTo ?? "", ...references]
      .flatMap((r) => r.split(/\s+/))
      .filter(Boolean),
    from: addresses(parsed.from)[0] ?? null,
    recipients: [
      ...addresses(parsed.to),
      ...addresses(parsed.cc),
      ...(typeof deliveredTo === "string" ? [deliveredTo] : []),
    ],
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
  };
}

const worker = outboxWorker({
  label: "IMAP-Antworten",
  sendDue: pollInbox,
  enabled: repliesConfigured,
});

/** Background task (boot): polls every IMAP_POLL_SECONDS while IMAP_URL is set. */
export const imapRepliesTask = {
  start: () => worker.start(env().IMAP_POLL_SECONDS * 1000),
  stop: () => worker.stop(),
};

registerTestHooks({ drainImapReplies: (now?: Date) => worker.drain(now) });
