import { createHash } from "node:crypto";
import type { WebAuthnCredential } from "@simplewebauthn/server";
import { and, count, eq, gt, lt } from "drizzle-orm";
import { BRAND_NAME } from "~/lib/brand";
import { PASSKEY_CHALLENGE_TTL_MINUTES } from "~/lib/passkeys";
import { passkeyChallenges, passkeys } from "~db/schema";
import { hashToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import { env } from "../../platform/env.server";

/**
 * The WebAuthn plumbing of the passkeys (ADR 280): the relying party (RP ID = the hostname of
 * APP_URL, origin = its origin), the challenges (stored server-side as SHA-256, 5 minutes, deleted
 * when used — whether the answer then verifies or not), and the stored credential.
 */

export function relyingParty() {
  const url = new URL(env().APP_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: BRAND_NAME };
}

export type ChallengePurpose = (typeof passkeyChallenges.$inferInsert)["purpose"];

/** Live anonymous login challenges at most (a flood from many clients, ADR 292). */
export const MAX_LIVE_LOGIN_CHALLENGES = 1000;

/**
 * Stores a challenge (expired ones swept first); false, and nothing stored, when `cap` live
 * challenges of this purpose exist already.
 */
export function storeChallenge(
  challenge: string,
  row: {
    purpose: ChallengePurpose;
    adminId?: number | null;
    loginChallengeHash?: string | null;
    name?: string | null;
  },
  cap?: number,
): boolean {
  const now = new Date();
  db().delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now)).run();
  if (cap !== undefined) {
    const live = db()
      .select({ n: count() })
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.purpose, row.purpose))
      .get();
    if ((live?.n ?? 0) >= cap) return false;
  }
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
  return true;
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

export function hasPasskeys(adminId: number): boolean {
  return Boolean(
    db().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.adminId, adminId)).get(),
  );
}
