import { sql } from "drizzle-orm";
import { admins } from "~db/schema";
import { branding } from "../branding/branding.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { createResetToken, RESET_TTL_MS, resetUrl } from "./reset-token.server";

export type ResetLinkResult =
  | ({ ok: true; username: string; email: string; expiresAt: Date } & (
      | { mailed: true; link?: undefined }
      | { mailed: false; link: string }
    ))
  | Failure;

/**
 * A one-time reset link for an admin: by another admin on /admin/users, or by whoever runs
 * `npm run admin:reset-password` on the server. The same tokens as "Passwort vergessen" (one
 * hour, single use); audited. For another admin with SMTP configured the link is mailed to that
 * admin and never shown to the actor (ADR 315); without SMTP the actor gets it to hand over, and
 * the target hears of it at the next login (resetLinkNotice). The command line always gets it.
 * `who` is an admin id, a username or an e-mail address (case-insensitive).
 */
export function issueResetLink(who: number | string, actor: AuditActor): ResetLinkResult {
  const key = typeof who === "string" ? who.trim() : "";
  const admin = db()
    .select({ id: admins.id, username: admins.username, email: admins.email })
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
  const byAdmin = typeof actor === "object" && actor.id !== admin.id;
  const mailed = byAdmin && mailConfigured();
  audit(actor, "password-reset-link", admin.username, {
    zielId: admin.id,
    gueltigBis: expiresAt.toISOString(),
    ...(mailed ? { perEmail: true } : {}),
  });
  const until = expiresAt.toLocaleString("de-DE", { timeZone: "Europe/Berlin" });
  const base = { ok: true as const, username: admin.username, email: admin.email, expiresAt };
  if (mailed) {
    queueMail({
      to: admin.email,
      subject: "Link zum Zurücksetzen Ihres Passworts",
      kind: "reset-link",
      content: {
        greeting: `Hallo ${admin.username},`,
        paragraphs: [
          `${actor.username} hat für Ihren Admin-Zugang bei ${branding().name} einen Link zum Zurücksetzen des Passworts erzeugt (gültig bis ${until} Uhr, nur einmal verwendbar).`,
          "Haben Sie darum gebeten, legen Sie über den Link ein neues Passwort fest. Falls nicht, ignorieren Sie den Link und wenden Sie sich bitte sofort an Ihr Team.",
        ],
        action: { label: "Neues Passwort festlegen", url: resetUrl(token) },
      },
    });
    return { ...base, mailed: true };
  }
  // From the command line with SMTP: the target hears of it by mail (and at the next login).
  if (actor === "Kommandozeile" && mailConfigured()) {
    queueMail({
      to: admin.email,
      subject: "Ein Passwort-Reset-Link für Ihr Konto wurde erzeugt",
      kind: "reset-link-notice",
      content: {
        greeting: `Hallo ${admin.username},`,
        paragraphs: [
          `Jemand auf dem Server (Kommandozeile) hat soeben einen Link zum Zurücksetzen des Passworts Ihres Admin-Zugangs bei ${branding().name} erzeugt (gültig bis ${until} Uhr).`,
          "Haben Sie darum gebeten, ist alles in Ordnung. Falls nicht, wenden Sie sich bitte sofort an Ihr Team und ändern Sie Ihr Passwort.",
        ],
      },
    });
  }
  return { ...base, mailed: false, link: resetUrl(token) };
}

/**
 * The notice at an admin's next login (ADR 262): reset links another admin (or the command line)
 * created for this one since the last login, from the audit log (no extra table).
 */
export function resetLinkNotice(admin: { id: number; lastLogin: Date | null }): string | null {
  const since = admin.lastLogin ?? new Date(0);
  const rows = db()
    .$client.prepare(
      `SELECT actor_name AS actor FROM audit_log
       WHERE action = 'password-reset-link' AND at > ? AND json_extract(details, '$.zielId') = ?
         AND (actor_id IS NULL OR actor_id != ?)
       ORDER BY id DESC`,
    )
    .all(since.getTime(), admin.id, admin.id) as { actor: string }[];
  if (!rows.length) return null;
  const who = [...new Set(rows.map((r) => r.actor))].join(", ");
  return `Seit Ihrer letzten Anmeldung wurde ${rows.length === 1 ? "ein Passwort-Reset-Link" : `${rows.length}-mal ein Passwort-Reset-Link`} für Ihr Konto erzeugt (von: ${who}). Falls Sie das nicht erwartet haben, ändern Sie bitte Ihr Passwort und informieren Sie Ihr Team.`;
}
