import { and, eq, isNull } from "drizzle-orm";
import { apiTokens } from "~db/schema";
import { db } from "../platform/db.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { revokeFeedTokensOf } from "../team-calendar/demo-feed.server";

/**
 * What an admin's keys outside the session are — API tokens and calendar-feed links — and their
 * end when the account is recovered (ADR 316): a password reset or a 2FA reset means someone else
 * may have held the account, and whatever keys they made would outlive the recovery.
 */
export type RevokedKeys = { apiTokens: string[]; feedLinks: number[] };

/** Revokes every live API token of the admin (answered 401 from now on), each audited; their names. */
function revokeAllApiTokens(adminId: number, actor: AuditActor): string[] {
  const rows = db()
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.adminId, adminId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id, name: apiTokens.name })
    .all();
  for (const row of rows) audit(actor, "api-token-revoked", row.name, { id: row.id });
  return rows.map((r) => r.name);
}

/** Revokes every API token and calendar-feed link of the admin, each audited with `actor`. */
export function revokeAccessKeys(adminId: number, actor: AuditActor): RevokedKeys {
  return {
    apiTokens: revokeAllApiTokens(adminId, actor),
    feedLinks: revokeFeedTokensOf(adminId, actor),
  };
}

export const revokedAny = (keys: RevokedKeys) =>
  keys.apiTokens.length > 0 || keys.feedLinks.length > 0;

/** The mail's lines naming each revoked key (none: no lines). */
export function revokedKeysLines(keys: RevokedKeys): string[] {
  if (!revokedAny(keys)) return [];
  const names = [
    ...keys.apiTokens.map((name) => `API-Zugang „${name}“`),
    ...keys.feedLinks.map((id) => `Kalender-Abo-Link ${id}`),
  ];
  return [
    `Zur Sicherheit wurden dabei alle Zugänge Ihres Kontos außerhalb der Anmeldung widerrufen: ${names.join(", ")}.`,
    "Brauchen Sie einen davon weiter, erstellen Sie ihn unter „Account-Einstellungen“ (API-Zugänge) bzw. „Einstellungen“ (Kalender-Abo-Links) neu und tragen Sie ihn in der Integration ein.",
  ];
}
