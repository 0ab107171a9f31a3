import { and, eq, isNull } from "drizzle-orm";
import { formatDate } from "~/lib/format";
import { apiTokens } from "~db/schema";
import { db } from "../platform/db.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { revokeFeedTokensOf } from "../team-calendar/demo-feed.server";
import { deleteAllPasskeys } from "./passkeys/webauthn.server";

/**
 * What an admin's keys are besides the password and the sessions — API tokens, calendar-feed links
 * and passkeys — and their end when the account is recovered (ADR 316; passkeys ADR 357): a
 * password reset or a 2FA reset means someone else may have held the account, and whatever keys
 * they made (a passkey opens the login on its own) would outlive the recovery.
 */
export type RevokedKeys = {
  apiTokens: string[];
  feedLinks: number[];
  passkeys: { name: string; createdAt: Date }[];
};

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

/**
 * Revokes every API token and calendar-feed link of the admin and deletes every passkey, each
 * audited with `actor` (a passkey as "passkey-removed" on the admin, with its name).
 */
export function revokeAccessKeys(
  admin: { id: number; username: string },
  actor: AuditActor,
): RevokedKeys {
  const passkeys = deleteAllPasskeys(admin.id);
  for (const key of passkeys) audit(actor, "passkey-removed", admin.username, { name: key.name });
  return {
    apiTokens: revokeAllApiTokens(admin.id, actor),
    feedLinks: revokeFeedTokensOf(admin.id, actor),
    passkeys,
  };
}

export const revokedAny = (keys: RevokedKeys) =>
  keys.apiTokens.length > 0 || keys.feedLinks.length > 0 || keys.passkeys.length > 0;

/** The mail's lines naming each revoked key and each removed passkey (none: no lines). */
export function revokedKeysLines(keys: RevokedKeys): string[] {
  const lines: string[] = [];
  const names = [
    ...keys.apiTokens.map((name) => `API-Zugang „${name}“`),
    ...keys.feedLinks.map((id) => `Kalender-Abo-Link ${id}`),
  ];
  if (names.length) {
    lines.push(
      `Zur Sicherheit wurden dabei alle Zugänge Ihres Kontos außerhalb der Anmeldung widerrufen: ${names.join(", ")}.`,
      "Brauchen Sie einen davon weiter, erstellen Sie ihn unter „Account-Einstellungen“ (API-Zugänge) bzw. „Einstellungen“ (Kalender-Abo-Links) neu und tragen Sie ihn in der Integration ein.",
    );
  }
  if (keys.passkeys.length) {
    const passkeys = keys.passkeys.map(
      (p) => `„${p.name}“ (hinzugefügt am ${formatDate(p.createdAt)})`,
    );
    lines.push(
      `Außerdem wurden alle Passkeys Ihres Kontos entfernt: ${passkeys.join(", ")}. Kennen Sie einen davon nicht, hat ihn jemand anderes angelegt.`,
      "Ihre eigenen Passkeys richten Sie unter „Account-Einstellungen“ → „Passkeys“ neu ein.",
    );
  }
  return lines;
}
