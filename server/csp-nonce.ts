import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
const POOL_NONCES = 256;
const pool = Buffer.alloc(NONCE_BYTES * POOL_NONCES);
let next = POOL_NONCES;

/**
 * A fresh nonce for the page's Content-Security-Policy: 16 bytes of the CSPRNG in base64 (24
 * characters). The bytes are drawn 4 KB at a time, one OpenSSL call per 256 nonces (as Node's own
 * `randomUUID` buffers its entropy), and each byte is handed out once: a `randomBytes(16)` per
 * request was 6–7 % of the landing page's CPU under load (ADR 360).
 */
export function cspNonce(): string {
  if (next === POOL_NONCES) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next++ * NONCE_BYTES;
  return pool.toString("base64", start, start + NONCE_BYTES);
}
