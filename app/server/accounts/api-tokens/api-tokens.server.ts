import { and, desc, eq, isNull } from "drizzle-orm";
import {
  API_TOKEN_PREFIX,
  type ApiTokenCreateInput,
  type ApiTokenJson,
  API_TOKEN_MESSAGES as M,
} from "~/lib/api-tokens";
import { admins, apiTokens } from "~db/schema";
import { branding } from "../../branding/branding.server";
import { queueMail } from "../../mail/outbox.server";
import { hashToken, randomToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import { env } from "../../platform/env.server";
import type { Failure } from "../../platform/result.server";
import { audit } from "../../privacy/audit.server";
import { checkCodeLimited, checkPasswordLimited, isFailure } from "../two-factor/step-up.server";
import { acceptSecondFactor } from "../two-factor/two-factor.server";
import { parseScopes } from "./authorize.server";

/**
 * Scoped API tokens of one admin (ADR 260): created with the password or a current 2FA
 * code, shown once, stored as SHA-256, listed without the token, revoked at once. Which calls a
 * token may make: the `scope` of each `adminApi` call (ADR 306), checked in authorize.server.ts.
 */

type Actor = { id: number; username: string };

const toJson = (row: typeof apiTokens.$inferSelect): ApiTokenJson => ({
  id: row.id,
  name: row.name,
  scopes: parseScopes(row.scopes),
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** The admin's tokens, newest first (revoked ones too, marked). */
export function listApiTokens(adminId: number): ApiTokenJson[] {
  return db()
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.adminId, adminId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .all()
    .map(toJson);
}

export type CreatedToken = { ok: true; token: string; json: ApiTokenJson };

/** Creates a token after the proof (password or a current code); audited and mailed to the admin. */
export async function createApiToken(
  actor: Actor,
  input: ApiTokenCreateInput,
): Promise<CreatedToken | Failure> {
  const admin = db().select().from(admins).where(eq(admins.id, actor.id)).get();
  if (!admin) return { ok: false, status: 404, error: "Admin nicht gefunden." };
  // Wrong passwords and codes count like the login's (step-up.server.ts).
  const { password, code } = input;
  if (password) {
    const proven = await checkPasswordLimited(admin, password);
    if (isFailure(proven)) return proven;
    if (!proven) return { ok: false, status: 403, error: M.passwordWrong, field: "password" };
  } else {
    const proven = code
      ? await checkCodeLimited(admin.id, () => acceptSecondFactor(admin, { code }))
      : false;
    if (isFailure(proven)) return proven;
    if (!proven) return { ok: false, status: 403, error: M.codeWrong, field: "code" };
  }
  const token = `${API_TOKEN_PREFIX}${randomToken()}`;
  const expiresAt = input.expiresInDays
    ? new Date(Date.now() + input.expiresInDays * 86_400_000)
    : null;
  const row = db()
    .insert(apiTokens)
    .values({
      adminId: admin.id,
      name: input.name,
      tokenHash: hashToken(token),
      scopes: JSON.stringify(input.scopes),
      expiresAt,
      createdAt: new Date(),
    })
    .returning()
    .get();
  audit(actor, "api-token-created", input.name, { id: row.id, scopes: input.scopes });
  queueMail({
    to: admin.email,
    subject: "Neuer API-Zugang erstellt",
    kind: "api-token-notice",
    content: {
      greeting: `Hallo ${admin.username},`,
      paragraphs: [
        `für Ihren Admin-Zugang bei ${branding().name} wurde der API-Zugang „${input.name}“ erstellt (Berechtigungen: ${input.scopes.join(", ")}${expiresAt ? `; gültig bis ${expiresAt.toISOString().slice(0, 10)}` : ""}).`,
        "Falls Sie das nicht erwartet haben, widerrufen Sie den Zugang unter „Account-Einstellungen“, ändern Sie sofort Ihr Passwort und wenden Sie sich an einen anderen Admin.",
      ],
      action: { label: "Account-Einstellungen öffnen", url: `${env().APP_URL}/admin/account` },
    },
  });
  return { ok: true, token, json: toJson(row) };
}

/** Revokes one of the admin's tokens: refused at once (401). Audited. */
export function revokeApiToken(actor: Actor, id: number): { ok: true; name: string } | Failure {
  const row = db()
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.adminId, actor.id), isNull(apiTokens.revokedAt)))
    .returning({ name: apiTokens.name })
    .get();
  if (!row) return { ok: false, status: 404, error: M.notFound };
  audit(actor, "api-token-revoked", row.name, { id });
  return { ok: true, name: row.name };
}
