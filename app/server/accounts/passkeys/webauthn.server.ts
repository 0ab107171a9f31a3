import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { WebAuthnCredential } from "@simplewebauthn/server";
import { and, eq, gt, lt } from "drizzle-orm";
import { BRAND_NAME } from "~/lib/brand";
import { PASSKEY_CHALLENGE_TTL_MINUTES } from "~/lib/passkeys";
import { passkeyChallenges, passkeys } from "~db/schema";
import { derivedKeys, hashToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import { env } from "../../platform/env.server";

/**
 * The WebAuthn plumbing of the passkeys (ADR 280): the relying party (RP ID = the hostname of
 * APP_URL, origin = its origin), the challenges (5 minutes, used once whether the answer then
 * verifies or not: an admin's stored server-side as SHA-256, the anonymous login's signed, ADR
 * 317), and the stored credential.
 */

export function relyingParty() {
  const url = new URL(env().APP_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: BRAND_NAME };
}

export type ChallengePurpose = (typeof passkeyChallenges.$inferInsert)["purpose"];

/** Stores a challenge of an admin's ceremony (expired ones swept first). */
export function storeChallenge(
  challenge: string,
  row: {
    purpose: ChallengePurpose;
    adminId?: number | null;
    loginChallengeHash?: string | null;
    name?: string | null;
  },
) {
  const now = new Date();
  db().delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now)).run();
  db()
    .insert(passkeyChallenges)
    .values({
      challengeHash: hashToken(challenge),
      purpose: row.purpose,
      adminId: row.adminId ?? null,
      loginChallengeHash: row.loginChallengeHash ?? null,
      name: row.name ?? null,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MINUTES * 60_000),
    })
    .run();
}

/**
 * The anonymous login's challenges are signed, not stored (ADR 317): 16 random bytes, the expiry
 * (ms, 8 bytes) and 16 bytes of an HMAC under a key of its own, so handing one out writes nothing
 * and no number of clients can fill a store. Used once all the same: the first answer leaves a
 * marker (its hash, purpose "login") until the challenge would have expired.
 */
const SIGNED_PURPOSE = "passkey-login-challenge";
const TTL_MS = PASSKEY_CHALLENGE_TTL_MINUTES * 60_000;
const macOf = (key: Buffer, payload: Buffer) =>
  createHmac("sha256", key).update(payload).digest().subarray(0, 16);

/** A new anonymous login challenge (the bytes for `generateAuthenticationOptions`). */
export function signedLoginChallenge(now = Date.now()): Uint8Array<ArrayBuffer> {
  const expires = Buffer.alloc(8);
  expires.writeBigUInt64BE(BigInt(now + TTL_MS));
  const payload = Buffer.concat([randomBytes(16), expires]);
  const [key] = derivedKeys(SIGNED_PURPOSE);
  const challenge = new Uint8Array(40);
  challenge.set(Buffer.concat([payload, macOf(key as Buffer, payload)]));
  return challenge;
}

/**
 * Takes an anonymous login challenge (as the browser signed it, base64url): true once, for one
 * this server signed that has not expired; false for a forged, expired or used one.
 */
export function claimSignedLoginChallenge(challenge: string | null, now = Date.now()): boolean {
  if (!challenge || challenge.length > 100) return false;
  const raw = Buffer.from(challenge, "base64url");
  if (raw.length !== 40) return false;
  const payload = raw.subarray(0, 24);
  const mac = raw.subarray(24);
  const signed = derivedKeys(SIGNED_PURPOSE).some((key) =>
    timingSafeEqual(macOf(key, payload), mac),
  );
  const expiresAt = Number(payload.readBigUInt64BE(16));
  if (!signed || expiresAt <= now || expiresAt > now + TTL_MS) return false;
  db()
    .delete(passkeyChallenges)
    .where(lt(passkeyChallenges.expiresAt, new Date(now)))
    .run();
  const marked = db()
    .insert(passkeyChallenges)
    .values({
      challengeHash: hashToken(challenge),
      purpose: "login",
      expiresAt: new Date(expiresAt),
    })
    .onConflictDoNothing()
    .run().changes;
  return marked === 1;
}

/** The challenge the browser signed (from clientDataJSON), or null when unreadable. */
export function challengeOf(response: { response: { clientDataJSON?: unknown } }): string | null {
  const clientData = response.response.clientDataJSON;
  if (typeof clientData !== "string" || clientData.length > 4096) return null;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, "base64url").toString("utf8"));
    return typeof parsed?.challenge === "string" ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes a live challenge of this purpose out of the store (single use: of two parallel answers
 * only the one that deletes it goes on). Null when unknown, expired, used or of another purpose.
 */
export function claimChallenge(challenge: string | null, purpose: ChallengePurpose) {
  if (!challenge) return null;
  return (
    db()
      .delete(passkeyChallenges)
      .where(
        and(
          eq(passkeyChallenges.challengeHash, hashToken(challenge)),
          eq(passkeyChallenges.purpose, purpose),
          gt(passkeyChallenges.expiresAt, new Date()),
        ),
      )
      .returning()
      .get() ?? null
  );
}

/** The stable WebAuthn user handle of an admin (one passkey per authenticator and admin). */
export const userHandle = (adminId: number) =>
  new Uint8Array(createHash("sha256").update(`anfrage-portal-admin:${adminId}`).digest()).slice(
    0,
    16,
  );

export type PasskeyRow = typeof passkeys.$inferSelect;

export const parseTransports = (json: string | null): string[] | undefined => {
  if (!json) return undefined;
  try {
    const list = JSON.parse(json);
    return Array.isArray(list) ? list.filter((t) => typeof t === "string") : undefined;
  } catch {
    return undefined;
  }
};

/** The stored passkey in the library's shape. */
export const toCredential = (row: PasskeyRow): WebAuthnCredential => ({
  id: row.credentialId,
  publicKey: new Uint8Array(Buffer.from(row.publicKey, "base64url")),
  counter: row.counter,
  transports: parseTransports(row.transports) as WebAuthnCredential["transports"],
});

export const findPasskey = (credentialId: string) =>
  db().select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).get();

/**
 * Stores the counter of a verified assertion: conditional on the counter read before, so of two
 * parallel uses of one assertion only one is accepted (the library refuses a counter that does not
 * grow; an authenticator that always says 0 keeps 0).
 */
export function recordUse(row: PasskeyRow, newCounter: number): boolean {
  return (
    db()
      .update(passkeys)
      .set({ counter: newCounter, lastUsedAt: new Date() })
      .where(and(eq(passkeys.id, row.id), eq(passkeys.counter, row.counter)))
      .run().changes === 1
  );
}

/**
 * Deletes every passkey of the admin (a recovery, ADR 357: a password or 2FA reset); what was
 * deleted, oldest first, for the audit and the owner's mail.
 */
export function deleteAllPasskeys(adminId: number): { name: string; createdAt: Date }[] {
  return db()
    .delete(passkeys)
    .where(eq(passkeys.adminId, adminId))
    .returning({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt })
    .all()
    .sort((a, b) => a.id - b.id)
    .map(({ name, createdAt }) => ({ name, createdAt }));
}

export function hasPasskeys(adminId: number): boolean {
  return Boolean(
    db().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.adminId, adminId)).get(),
  );
}
