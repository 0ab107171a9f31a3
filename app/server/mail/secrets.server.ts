import { sealer } from "../platform/crypto.server";
import { maskTokens } from "./render";

/** Keys derived from SESSION_SECRET (each of a rotation list), never stored in the DB. */
const box = sealer("mail-outbox-body");

/** Whether a mail body carries a token link (reset, invitation) that must not sit readable in the DB. */
export const carriesSecret = (body: string) => maskTokens(body) !== body;

/** Sealed with AES-256-GCM (crypto.server sealer): "enc:v1:" + base64url(iv | tag | ciphertext). */
export const sealBody = (body: string): string => box.seal(body);

export const isSealed = (body: string) => box.isSealed(body);

/** The plain body (unsealed ones as they are); null when no current key opens it. */
export function openBody(body: string): string | null {
  return isSealed(body) ? box.open(body) : body;
}

/** What may be shown or kept once the secret is no longer needed: token links masked. */
export function maskedBody(body: string): string {
  return maskTokens(openBody(body) ?? "(verschlüsselt, nicht mehr lesbar)");
}
