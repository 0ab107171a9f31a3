import { createHmac, randomBytes } from "node:crypto";
import { derivedKeys, safeEqual } from "../platform/crypto.server";
import { env } from "../platform/env.server";

/**
 * Replies by IMAP (ADR 285): the inbox from IMAP_URL, its signed plus-addresses
 * (`user+r<requestId>.<signature>@domain`, the outgoing message's Reply-To) and the Message-IDs of
 * our messages to leads (a reply's In-Reply-To/References finds its request by them).
 */
export type ImapInbox = {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
  /** The inbox's own address (IMAP_ADDRESS, or the user when it is one). */
  address: string;
};

let cached: { url: string; inbox: ImapInbox | null } | undefined;

/** The configured inbox, or null (IMAP_URL unset, or no address to build plus-addresses from). */
export function imapInbox(): ImapInbox | null {
  const raw = env().IMAP_URL;
  if (!raw) return null;
  if (cached?.url === raw) return cached.inbox;
  const url = new URL(raw);
  const secure = url.protocol === "imaps:";
  const user = decodeURIComponent(url.username);
  const address = env().IMAP_ADDRESS ?? (user.includes("@") ? user : null);
  const inbox = address
    ? {
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port ? Number(url.port) : secure ? 993 : 143,
        secure,
        user,
        pass: decodeURIComponent(url.password),
        mailbox: decodeURIComponent(url.pathname.replace(/^\//, "")) || "INBOX",
        address: address.toLowerCase(),
      }
    : null;
  cached = { url: raw, inbox };
  return inbox;
}

/** Whether replies come back into the request (IMAP_URL set with a usable address). */
export const repliesConfigured = () => imapInbox() !== null;

const keys = () => derivedKeys("reply-plus-address");
const sign = (key: Buffer, requestId: number) =>
  createHmac("sha256", key).update(`r${requestId}`).digest("hex").slice(0, 16);

/** The Reply-To of a message about request `requestId`: the inbox's signed plus-address. */
export function replyAddress(requestId: number): string | null {
  const inbox = imapInbox();
  if (!inbox) return null;
  const [local, domain] = splitAddress(inbox.address);
  return `${local}+r${requestId}.${sign(keys()[0] as Buffer, requestId)}@${domain}`;
}

/**
 * The request a recipient address stands for, when it is the inbox's plus-address with a valid
 * signature (any key of the SESSION_SECRET rotation); null for every other address.
 */
export function requestOfAddress(address: string): number | null {
  const inbox = imapInbox();
  if (!inbox) return null;
  const [ownLocal, ownDomain] = splitAddress(inbox.address);
  const [local, domain] = splitAddress(address.trim().toLowerCase());
  if (domain !== ownDomain) return null;
  const match = /^(.+)\+r(\d{1,12})\.([0-9a-f]{16})$/.exec(local);
  if (!match || match[1] !== ownLocal) return null;
  const id = Number(match[2]);
  const given = match[3] as string;
  return keys().some((key) => safeEqual(sign(key, id), given)) ? id : null;
}

function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf("@");
  return [address.slice(0, at), address.slice(at + 1)];
}

/**
 * The Message-ID of a message to a lead (stored with it in request_messages, sent with the mail):
 * the outbox id and 16 random bytes (as a decimal number), so no one can guess the ID of another
 * thread and answer into it by In-Reply-To.
 */
export function outboxMessageId(mail: { id: number }): string {
  const host = new URL(env().APP_URL).hostname || "localhost";
  const nonce = BigInt(`0x${randomBytes(16).toString("hex")}`);
  return `<anfrage.${mail.id}.${nonce}@${host}>`;
}
