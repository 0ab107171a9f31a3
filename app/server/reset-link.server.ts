import { sql } from "drizzle-orm";
import { admins } from "~db/schema";
import { db } from "./db.server";
import { createResetToken, RESET_TTL_MS, resetUrl } from "./password-reset.server";
import { type AuditActor, audit } from "./privacy/audit.server";
import { type Failure, failure } from "./result.server";

export type ResetLinkResult =
  | { ok: true; username: string; link: string; expiresAt: Date }
  | Failure;

/**
 * A one-time reset link for an admin, handed out directly (not mailed): by another admin on
 * /admin/users, or by whoever runs `npm run admin:reset-password` on the server. The same tokens
 * as "Passwort vergessen" (one hour, single use); audited. `who` is an admin id, a username or an
 * e-mail address (case-insensitive).
 */
export function issueResetLink(who: number | string, actor: AuditActor): ResetLinkResult {
  const key = typeof who === "string" ? who.trim() : "";
  const admin = db()
    .select({ id: admins.id, username: admins.username })
    .from(admins)
    .where(
      typeof who === "number"
        ? sql`${admins.id} = ${who}`
        : sql`lower(${admins.username}) = lower(${key}) or lower(${admins.email}) = lower(${key})`,
    )
    .get();
  if (!admin) return failure(404, "Admin nicht gefunden.");
  const token = createResetToken(admin.id);
  const expiresAt = new Date(Date.now() + RESET_TTL_MS);
  audit(actor, "password-reset-link", admin.username, { gueltigBis: expiresAt.toISOString() });
  return { ok: true, username: admin.username, link: resetUrl(token), expiresAt };
}
