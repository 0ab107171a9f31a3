import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, asc, eq } from "drizzle-orm";
import { PASSKEY_MESSAGES as P } from "~/lib/passkeys";
import { TWO_FACTOR_MESSAGES as M } from "~/lib/two-factor";
import { admins, passkeys } from "~db/schema";
import { branding } from "../../branding/branding.server";
import { db } from "../../platform/db.server";
import { type Failure, failure, type Result } from "../../platform/result.server";
import { audit } from "../../privacy/audit.server";
import { deleteOtherSessions } from "../auth.server";
import { checkCodeLimited, checkPasswordLimited, isFailure } from "../two-factor/step-up.server";
import { acceptSecondFactor, tellAdmin } from "../two-factor/two-factor.server";
import {
  challengeOf,
  claimChallenge,
  parseTransports,
  relyingParty,
  storeChallenge,
  userHandle,
} from "./webauthn.server";

/** @simplewebauthn/server (~5 MB of heap) loads on the first passkey ceremony (ADR 301). */
const webauthn = () => import("@simplewebauthn/server");

/**
 * The passkeys of one admin (ADR 280) in "Sicherheit": several per admin, each with a
 * name; adding and removing need the password or a current code (like the other sensitive
 * actions), are audited and mailed, and end the admin's other sessions like a 2FA change. The
 * per-admin switch "Passkey statt Passwort erlauben" decides whether a passkey alone opens the
 * login (on by default).
 */

type Actor = { id: number; tokenHash?: string };
type AdminRow = typeof admins.$inferSelect;

const adminRow = (id: number) => db().select().from(admins).where(eq(admins.id, id)).get();
const notFound: Failure = failure(404, "Admin nicht gefunden.");

export type PasskeyJson = {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

export function listPasskeys(adminId: number): PasskeyJson[] {
  return db()
    .select()
    .from(passkeys)
    .where(eq(passkeys.adminId, adminId))
    .orderBy(asc(passkeys.id))
    .all()
    .map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt.toISOString(),
      lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    }));
}

/** Whether some active admin may log in with a passkey alone (the login page offers it then). */
export function passkeyLoginOffered(): boolean {
  return Boolean(
    db()
      .select({ id: passkeys.id })
      .from(passkeys)
      .innerJoin(admins, eq(admins.id, passkeys.adminId))
      .where(and(eq(admins.isActive, true), eq(admins.passkeyLogin, true)))
      .get(),
  );
}

/** What the "Sicherheit" section shows of the passkeys. */
export function passkeyStatus(adminId: number) {
  return { list: listPasskeys(adminId), loginAllowed: adminRow(adminId)?.passkeyLogin ?? true };
}

/** The step-up of a sensitive change: the password or a current code, counted like the login's. */
async function prove(
  admin: AdminRow,
  proof: { password?: string; code?: string },
): Promise<true | Failure> {
  if (proof.password) {
    const ok = await checkPasswordLimited(admin, proof.password);
    if (isFailure(ok)) return ok;
    return ok || failure(403, M.passwordWrong, "password");
  }
  if (!proof.code) return failure(400, P.proofRequired, "password");
  const ok = await checkCodeLimited(admin.id, () =>
    acceptSecondFactor(admin, { code: proof.code }),
  );
  if (isFailure(ok)) return ok;
  return ok ? true : failure(403, M.codeWrong, "code");
}

/**
 * The first half of adding a passkey: after the proof, the options for `navigator.credentials
 * .create` (a discoverable credential, the admin's existing passkeys excluded).
 */
export async function passkeyRegistrationOptions(
  actor: Actor,
  input: { name: string; password?: string; code?: string },
): Promise<Result<{ options: PublicKeyCredentialCreationOptionsJSON }>> {
  const admin = adminRow(actor.id);
  if (!admin) return notFound;
  const proven = await prove(admin, input);
  if (proven !== true) return proven;
  const { rpID, rpName } = relyingParty();
  const existing = db().select().from(passkeys).where(eq(passkeys.adminId, admin.id)).all();
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID,
    userName: admin.username,
    userDisplayName: admin.username,
    userID: userHandle(admin.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: parseTransports(p.transports),
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    // ES256 and RS256 (Ed25519 is not accepted by every platform yet).
    supportedAlgorithmIDs: [-7, -257],
  });
  storeChallenge(options.challenge, { purpose: "register", adminId: admin.id, name: input.name });
  return { ok: true, options };
}

/** The second half: the browser's answer verified against the stored challenge; the passkey saved. */
export async function registerPasskey(
  actor: Actor,
  response: RegistrationResponseJSON,
): Promise<Result<{ passkey: PasskeyJson }>> {
  const admin = adminRow(actor.id);
  if (!admin) return notFound;
  const challenge = challengeOf(response);
  const stored = claimChallenge(challenge, "register");
  if (!stored || stored.adminId !== admin.id) return failure(400, P.registrationFailed);
  const { rpID, origin } = relyingParty();
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>["registrationInfo"];
  try {
    const verified = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge as string,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
      supportedAlgorithmIDs: [-7, -257],
    });
    info = verified.verified ? verified.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) return failure(400, P.registrationFailed);
  const { credential } = info;
  const name = stored.name ?? "Passkey";
  const row = db()
    .insert(passkeys)
    .values({
      adminId: admin.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ? JSON.stringify(credential.transports) : null,
      name,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!row) return failure(409, P.duplicate);
  deleteOtherSessions(admin.id, actor.tokenHash);
  audit({ id: admin.id, username: admin.username }, "passkey-added", admin.username, { name });
  tellAdmin(admin, "Neuer Passkey für Ihr Konto", [
    `für Ihren Admin-Zugang bei ${branding().name} wurde der Passkey „${name}“ hinzugefügt. Ihre anderen Sitzungen wurden abgemeldet.`,
  ]);
  return {
    ok: true,
    passkey: {
      id: row.id,
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: null,
    },
  };
}

/** Removes one of the admin's passkeys after the proof; audited and mailed. */
export async function removePasskey(
  actor: Actor,
  id: number,
  proof: { password?: string; code?: string },
): Promise<Result<{ name: string }>> {
  const admin = adminRow(actor.id);
  if (!admin) return notFound;
  const target = db()
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.adminId, admin.id)))
    .get();
  if (!target) return failure(404, P.notFound);
  const proven = await prove(admin, proof);
  if (proven !== true) return proven;
  db().delete(passkeys).where(eq(passkeys.id, target.id)).run();
  deleteOtherSessions(admin.id, actor.tokenHash);
  audit({ id: admin.id, username: admin.username }, "passkey-removed", admin.username, {
    name: target.name,
  });
  tellAdmin(admin, "Passkey entfernt", [
    `von Ihrem Admin-Zugang bei ${branding().name} wurde der Passkey „${target.name}“ entfernt. Ihre anderen Sitzungen wurden abgemeldet.`,
  ]);
  return { ok: true, name: target.name };
}

/** The switch "Passkey statt Passwort erlauben" (audited: it changes how one can log in). */
export function setPasskeyLogin(actor: Actor, on: boolean): Result<{ on: boolean }> {
  const admin = adminRow(actor.id);
  if (!admin) return notFound;
  db().update(admins).set({ passkeyLogin: on }).where(eq(admins.id, admin.id)).run();
  audit({ id: admin.id, username: admin.username }, "account", admin.username, {
    passkeyStattPasswort: on,
  });
  return { ok: true, on };
}
