import { createHmac } from "node:crypto";
import { emailKey } from "~/lib/contact-keys";
import { derivedKeys } from "../platform/crypto.server";

/** Providers that ignore dots in the local part (every spelling reaches one mailbox). */
const DOTLESS_DOMAINS: Record<string, string> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/**
 * The mailbox an address reaches, for the 24 h limit only: lower-cased and trimmed, without a
 * subaddress ("anna+1@…" and "anna+2@…" are one inbox at most providers) and, at Gmail, without
 * dots. Two people sharing a base address share the limit; a spammer cannot multiply it.
 */
export function mailboxKey(email: string): string {
  const address = emailKey(email) ?? email;
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at).replace(/\+.*$/, "");
  let domain = address.slice(at + 1);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    local = local.replaceAll(".", "");
    domain = dotless;
  }
  return `${local || address.slice(0, at)}@${domain}`;
}

/** The address as an HMAC (key from SESSION_SECRET): `rate_limits` holds no readable address. */
export function addressKey(email: string): string {
  const [key] = derivedKeys("receipt-address");
  return createHmac("sha256", key).update(mailboxKey(email)).digest("base64url");
}
