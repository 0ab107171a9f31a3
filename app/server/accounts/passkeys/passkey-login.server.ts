import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { and, eq, gt } from "drizzle-orm";
import { clientKey } from "~/lib/client-key";
import { PASSKEY_MESSAGES as P } from "~/lib/passkeys";
import { TWO_FACTOR_MESSAGES as M } from "~/lib/two-factor";
import { admins, loginChallenges, passkeys } from "~db/schema";
import { hashToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import {
  accountLoginLimiter,
  consumeAll,
  passkeyOptionsLimiter,
  refundAll,
  tooManyMessage,
  withNetwork,
} from "../../platform/rate-limit.server";
import { failure, type Result } from "../../platform/result.server";
import { accountCounterKey, loginKeys, recordLoginFailure } from "../login-lock.server";
import type { ChallengeOutcome } from "../two-factor/challenge.server";
import { codeKey, codeLimiter } from "../two-factor/step-up.server";
import {
  challengeOf,
  claimChallenge,
  claimSignedLoginChallenge,
  findPasskey,
  type PasskeyRow,
  parseTransports,
  recordUse,
  relyingParty,
  signedLoginChallenge,
  storeChallenge,
  toCredential,
} from "./webauthn.server";

/** @simplewebauthn/server (~5 MB of heap) loads on the first passkey ceremony (ADR 301). */
const webauthn = () => import("@simplewebauthn/server");

/**
 * Logging in with a passkey (ADR 280), two ways:
 * - the second step: after the password, `challenge` (the password step's) names the admin; the
 *   passkey replaces the code and counts on the same counter of wrong codes (5 in 15 minutes);
 * - instead of password and code (usernameless, a discoverable credential with user verification):
 *   counted like a password on the client's and the network's counters and, once the passkey
 *   names an account, on the account's login lock. Only when the admin allows it ("Passkey statt
 *   Passwort erlauben").
 * Either ends in the login's own completion (the session, audited), passed in as `complete`.
 */

type AdminRow = typeof admins.$inferSelect;
type Complete<T> = (row: AdminRow, redirectTo: string | null) => T;

const limited = (retryAfterSeconds: number) => ({
  kind: "limited" as const,
  retryAfterSeconds,
  message: tooManyMessage(retryAfterSeconds, "admin"),
});

const tooMany = (retryAfterSeconds: number) => ({
  ...failure(429, tooManyMessage(retryAfterSeconds, "admin")),
  retryAfterSeconds,
});

/** The admin behind a live password-step challenge (and the page they wanted). */
function liveLoginChallenge(challenge: string) {
  return db()
    .select({ admin: admins, redirectTo: loginChallenges.redirectTo })
    .from(loginChallenges)
    .innerJoin(admins, eq(admins.id, loginChallenges.adminId))
    .where(
      and(
        eq(loginChallenges.tokenHash, hashToken(challenge)),
        gt(loginChallenges.expiresAt, new Date()),
      ),
    )
    .get();
}

/**
 * The options for `navigator.credentials.get`: with the password step's challenge, the admin's
 * passkeys; without, any discoverable passkey of this site (user verification required).
 */
export async function passkeyLoginOptions(
  input: { challenge?: string },
  ip: string,
): Promise<Result<{ options: PublicKeyCredentialRequestOptionsJSON }>> {
  const { rpID } = relyingParty();
  // Each call writes a challenge: counted per client (ADR 292) and per network (ADR 357).
  const state = await consumeAll(withNetwork(passkeyOptionsLimiter(), clientKey(ip), ip));
  if (!state.ok) return tooMany(state.retryAfterSeconds);
  if (input.challenge) {
    const found = liveLoginChallenge(input.challenge);
    if (!found?.admin.isActive) return failure(401, M.challengeExpired);
    const own = db().select().from(passkeys).where(eq(passkeys.adminId, found.admin.id)).all();
    if (!own.length) return failure(404, P.notFound);
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID,
      allowCredentials: own.map((p) => ({
        id: p.credentialId,
        transports: parseTransports(p.transports),
      })),
      userVerification: "preferred",
    });
    storeChallenge(options.challenge, {
      purpose: "second-factor",
      adminId: found.admin.id,
      loginChallengeHash: hashToken(input.challenge),
    });
    return { ok: true, options };
  }
  // Anonymous: a signed challenge, nothing stored (ADR 317).
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID,
    userVerification: "required",
    challenge: signedLoginChallenge(),
  });
  return { ok: true, options };
}

/** Verifies an assertion of this stored passkey; stores its counter (false when refused). */
async function assertionValid(
  row: PasskeyRow,
  response: AuthenticationResponseJSON,
  challenge: string,
  requireUserVerification: boolean,
): Promise<boolean> {
  const { rpID, origin } = relyingParty();
  try {
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: toCredential(row),
      requireUserVerification,
    });
    return result.verified && recordUse(row, result.authenticationInfo.newCounter);
  } catch {
    return false;
  }
}

export type PasskeyLoginOutcome<T> =
  | Exclude<ChallengeOutcome, { kind: "ok" }>
  | ({ kind: "ok" } & T);

/** Trades an assertion (and, for the second step, the password step's challenge) for the session. */
export async function verifyPasskeyLogin<T extends object>(
  input: { challenge?: string; response: AuthenticationResponseJSON; redirectTo?: string | null },
  ip: string,
  knownAdmins: ReadonlySet<number>,
  complete: Complete<T>,
): Promise<PasskeyLoginOutcome<T>> {
  return input.challenge
    ? secondStep(input.challenge, input.response, complete)
    : instead(input.response, ip, knownAdmins, (admin) =>
        complete(admin, input.redirectTo ?? null),
      );
}

async function secondStep<T extends object>(
  loginChallenge: string,
  response: AuthenticationResponseJSON,
  complete: Complete<T>,
) {
  const found = liveLoginChallenge(loginChallenge);
  if (!found?.admin.isActive) return { kind: "expired" as const, message: M.challengeExpired };
  const admin = found.admin;
  const limiter = codeLimiter();
  const key = codeKey(admin.id);
  const state = await limiter.consume(key);
  if (!state.ok) return limited(state.retryAfterSeconds);
  const challenge = challengeOf(response);
  const stored = claimChallenge(challenge, "second-factor");
  const row = findPasskey(response.id);
  const valid =
    challenge &&
    stored?.adminId === admin.id &&
    stored.loginChallengeHash === hashToken(loginChallenge) &&
    row?.adminId === admin.id &&
    (await assertionValid(row, response, challenge, false));
  if (!valid) return { kind: "failed" as const, message: P.loginFailed };
  // The password step's challenge is used once, as with a code.
  const claimed = db()
    .delete(loginChallenges)
    .where(eq(loginChallenges.tokenHash, hashToken(loginChallenge)))
    .run();
  if (claimed.changes !== 1) return { kind: "expired" as const, message: M.challengeExpired };
  await limiter.reset(key);
  return { kind: "ok" as const, ...complete(admin, found.redirectTo) };
}

async function instead<T extends object>(
  response: AuthenticationResponseJSON,
  ip: string,
  knownAdmins: ReadonlySet<number>,
  complete: (row: AdminRow) => T,
) {
  // The password step's counters: the client's and its network's — the client's alone for a
  // browser that logged in as the passkey's admin before (login-lock.server.ts).
  const row = findPasskey(response.id);
  const perClient = loginKeys(ip, row ? knownAdmins.has(row.adminId) : false);
  const clientState = await consumeAll(perClient);
  if (!clientState.ok) return limited(clientState.retryAfterSeconds);
  const challenge = challengeOf(response);
  const claimed = claimSignedLoginChallenge(challenge);
  const admin = row
    ? db().select().from(admins).where(eq(admins.id, row.adminId)).get()
    : undefined;
  if (!challenge || !claimed || !row || !admin)
    return { kind: "failed" as const, message: P.loginFailed };
  // The passkey names the account: its login lock counts this attempt too — on the known devices'
  // own counter when this browser logged in as this admin before (ADR 317), so a stranger's lock
  // never blocks the owner's passkey.
  const perAccount = accountLoginLimiter();
  const accountCounter = accountCounterKey(admin.username, knownAdmins.has(admin.id));
  const accountState = await perAccount.consume(accountCounter);
  if (!accountState.ok) {
    await refundAll(perClient);
    return limited(accountState.retryAfterSeconds);
  }
  if (!(await assertionValid(row, response, challenge, true))) {
    await recordLoginFailure(admin.username, ip);
    return { kind: "failed" as const, message: P.loginFailed };
  }
  await refundAll(perClient);
  await perAccount.refund(accountCounter);
  if (!admin.isActive) return { kind: "failed" as const, message: P.loginFailed };
  if (!admin.passkeyLogin) return { kind: "failed" as const, message: P.loginNotAllowed };
  return { kind: "ok" as const, ...complete(admin) };
}
