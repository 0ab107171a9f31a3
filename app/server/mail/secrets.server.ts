import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKeys } from "../crypto.server";
import { maskTokens } from "./render";

const PREFIX = "enc:v1:";

/** AES-256 keys derived from SESSION_SECRET (each of a rotation list), never stored in the DB. */
const keys = () => derivedKeys("mail-outbox-body");

/** Whether a mail body carries a token link (reset, invitation) that must not sit readable in the DB. */
export const carriesSecret = (body: string) => maskTokens(body) !== body;

/** AES-256-GCM: "enc:v1:" + base64url(iv | tag | ciphertext). */
export function sealBody(body: string): string {
  const [key] = keys();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(body, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
}

export const isSealed = (body: string) => body.startsWith(PREFIX);

/** The plain body (unsealed ones as they are); null when no current key opens it. */
export function openBody(body: string): string | null {
  if (!isSealed(body)) return body;
  const raw = Buffer.from(body.slice(PREFIX.length), "base64url");
  for (const key of keys()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {}
  }
  return null;
}

/** What may be shown or kept once the secret is no longer needed: token links masked. */
export function maskedBody(body: string): string {
  return maskTokens(openBody(body) ?? "(verschlüsselt, nicht mehr lesbar)");
}
