import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from "node:crypto";
import { env } from "./env.server";
import { registerTestHooks } from "./test-hooks.server";

// scrypt N=2^14, r=8, p=5 (one of OWASP's equivalent settings): 16 MiB per hash, so at most
// MAX_CONCURRENT_HASHES at once add 32 MiB on the 256 MB machine (ADR 091, ADR 168; N=2^15, p=3
// needed 32 MiB each). Older hashes are verified with their own parameters and re-hashed at the
// next login.
export const SCRYPT = { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;
export const MAX_CONCURRENT_HASHES = 2;

// A small semaphore: further hashes wait for a free slot instead of allocating 32 MiB each.
let running = 0;
const waiting: (() => void)[] = [];
async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((r) => waiting.push(r));
  else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

registerTestHooks({ runningHashes: () => running });

function scryptAsync(password: string, salt: Buffer, params = SCRYPT): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, params, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

/** "scrypt$N$r$p$salt$hash" (base64url parts) so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return [
    "scrypt",
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scryptAsync(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when a stored hash uses other parameters than today's (re-hash it after a successful login). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  return (
    scheme !== "scrypt" ||
    Number(n) !== SCRYPT.N ||
    Number(r) !== SCRYPT.r ||
    Number(p) !== SCRYPT.p
  );
}

/** A hash of a real password, for comparing against when the user does not exist (same timing). */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash() {
  dummyHash ??= hashPassword(randomBytes(12).toString("hex"));
  return dummyHash;
}

/** A random URL-safe token (session, invitation, reset). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

/** Tokens are stored only as their SHA-256. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * 32-byte keys for one purpose ("visitor-request-link", "mail-outbox-body", …), derived with HKDF
 * from each SESSION_SECRET of the rotation list (the first signs or seals, every one verifies or
 * opens). Nothing derived is stored; a new purpose gets its own name, never another's key.
 */
export function derivedKeys(purpose: string): Buffer[] {
  return env()
    .SESSION_SECRET.split(",")
    .map((secret) => Buffer.from(hkdfSync("sha256", secret.trim(), "anfrage-portal", purpose, 32)));
}

const SEALED_PREFIX = "enc:v1:";

/**
 * Encryption at rest for one purpose (mail bodies with token links, TOTP secrets, …): AES-256-GCM
 * under the keys derivedKeys(purpose) gives, as "enc:v1:" + base64url(iv | tag | ciphertext). A
 * copy of the database alone opens nothing; `open` tries every key of the rotation list and answers
 * null when the text is not sealed or no current key opens it (SESSION_SECRET lost).
 */
export function sealer(purpose: string) {
  const keys = () => derivedKeys(purpose);
  return {
    isSealed: (text: string) => text.startsWith(SEALED_PREFIX),
    seal(text: string): string {
      const [key] = keys();
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key as Buffer, iv);
      const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
    },
    open(sealed: string): string | null {
      if (!sealed.startsWith(SEALED_PREFIX)) return null;
      const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
      for (const key of keys()) {
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
          decipher.setAuthTag(raw.subarray(12, 28));
          return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString(
            "utf8",
          );
        } catch {}
      }
      return null;
    },
  };
}
