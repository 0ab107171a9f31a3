import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { awaitsActivation } from "~/lib/admin-users";
import { MESSAGES } from "~/lib/auth-forms";
import { admins, followUps, invitations, requestAssignees } from "~db/schema";
import { branding } from "../branding/branding.server";
import { queueMail } from "../mail/outbox.server";
import { hashPassword } from "../platform/crypto.server";
import { type Db, db, transaction } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import { adminActor, audit } from "../privacy/audit.server";
import { notifyAccountActivated, notifyAccountStatus } from "./activation.server";
import { type AdminUser, deleteOtherSessions, toAdminUser } from "./auth.server";
import { clearLoginLock } from "./login-lock.server";
import { weakPassword } from "./password-strength.server";
import { checkPasswordLimited, isFailure } from "./two-factor/step-up.server";

export function listAdmins(): AdminUser[] {
  return db().select().from(admins).orderBy(asc(admins.id)).all().map(toAdminUser);
}

/** Every admin's username by id (exports name assignees without one query per row). */
export function adminUsernames(): Map<number, string> {
  return new Map(
    db()
      .select({ id: admins.id, username: admins.username })
      .from(admins)
      .all()
      .map((a) => [a.id, a.username]),
  );
}

export function getAdminById(id: number) {
  return db().select().from(admins).where(eq(admins.id, id)).get();
}

export function findAdminByEmail(email: string) {
  return db()
    .select()
    .from(admins)
    .where(sql`lower(${admins.email}) = lower(${email.trim()})`)
    .get();
}

export function usernameTaken(username: string) {
  return Boolean(
    db()
      .select({ id: admins.id })
      .from(admins)
      .where(sql`lower(${admins.username}) = lower(${username.trim()})`)
      .get(),
  );
}

/** Usernames of the active admins other than `exceptId` (named in the delete confirmation). */
export function otherActiveAdmins(exceptId: number): string[] {
  return db()
    .select({ username: admins.username })
    .from(admins)
    .where(and(eq(admins.isActive, true), ne(admins.id, exceptId)))
    .orderBy(asc(admins.username))
    .all()
    .map((r) => r.username);
}

function activeCount() {
  return db().select({ n: count() }).from(admins).where(eq(admins.isActive, true)).get()?.n ?? 0;
}

type NewAdmin = {
  username: string;
  email: string;
  passwordHash: string;
  isActive: boolean;
  passwordChanged: boolean;
};

/** Inserts an admin row (synchronous, for use inside a transaction); fields are validated. */
export function insertAdmin(tx: Db, input: NewAdmin) {
  return tx
    .insert(admins)
    .values({
      username: input.username.trim(),
      email: input.email.trim().toLowerCase(),
      passwordHash: input.passwordHash,
      isActive: input.isActive,
      passwordChanged: input.passwordChanged,
    })
    .returning()
    .get();
}

/**
 * Own password change: checks the current one, ends the admin's other sessions and lifts the
 * login lock of the account (and of `ip`, the address it was changed from).
 */
export async function changePassword(
  adminId: number,
  oldPassword: string,
  newPassword: string,
  keepTokenHash: string | undefined,
  ip: string,
): Promise<{ ok: true } | Failure> {
  const row = getAdminById(adminId);
  if (!row) return failure(404, MESSAGES.changeFailed);
  // Counted like the login's wrong passwords (step-up.server.ts).
  const proven = await checkPasswordLimited(row, oldPassword);
  if (isFailure(proven)) return proven;
  if (!proven) return failure(400, MESSAGES.wrongCurrent, "oldPassword");
  if (oldPassword === newPassword) {
    return failure(400, "Das neue Passwort muss sich vom aktuellen unterscheiden.", "newPassword");
  }
  const weak = await weakPassword(newPassword, "newPassword", [row.username, row.email]);
  if (weak) return weak;
  const passwordHash = await hashPassword(newPassword);
  db()
    .update(admins)
    .set({ passwordHash, passwordChanged: true })
    .where(eq(admins.id, adminId))
    .run();
  deleteOtherSessions(adminId, keepTokenHash);
  await clearLoginLock(row, ip);
  audit({ id: row.id, username: row.username }, "password-changed", row.username);
  return { ok: true };
}

function guardOther(actorId: number, targetId: number, selfMessage: string) {
  const target = getAdminById(targetId);
  if (!target) return failure(404, "Admin nicht gefunden.");
  if (target.id === actorId) return failure(400, selfMessage);
  return { ok: true, target } as const;
}

/**
 * Body of POST /api/admin/users/{id}/toggle-status and the users page's toggle (its "1"/"0" read
 * by `formFlag`): without `activate` the state flips.
 */
export const AdminActiveSchema = z.object({
  activate: z.boolean({ error: "'activate' muss true oder false sein." }).optional(),
});

/** Activate or deactivate another admin (never oneself, never the last active admin). */
export function setAdminActive(
  actorId: number,
  targetId: number,
  active: boolean,
): { ok: true; admin: AdminUser } | Failure {
  const guard = guardOther(
    actorId,
    targetId,
    "Sie können Ihren eigenen Account nicht deaktivieren oder aktivieren.",
  );
  if (!guard.ok) return guard;
  if (!active && guard.target.isActive && activeCount() <= 1) {
    return failure(400, "Der letzte aktive Admin kann nicht deaktiviert werden.");
  }
  const waited = awaitsActivation(guard.target);
  const row = db()
    .update(admins)
    .set({ isActive: active })
    .where(eq(admins.id, targetId))
    .returning()
    .get();
  if (!active) deleteOtherSessions(targetId);
  const actor = adminActor(actorId);
  audit(actor, active ? "account-activated" : "account-deactivated", row.username);
  // A registration that waited for this: the invitee hears that she can log in now; any other
  // change of the state is told to its admin too (ADR 315).
  if (active && waited) notifyAccountActivated(row);
  else if (active !== guard.target.isActive && typeof actor === "object")
    notifyAccountStatus(row, active, actor.username);
  return { ok: true, admin: toAdminUser(row) };
}

/**
 * Deletes another admin: assignments and invitations move to the acting admin in one transaction,
 * then the deleted admin is told by mail.
 */
export function deleteAdmin(
  actorId: number,
  targetId: number,
): { ok: true; transferredAssignments: number; transferredInvitations: number } | Failure {
  const guard = guardOther(actorId, targetId, "Sie können Ihren eigenen Account nicht löschen.");
  if (!guard.ok) return guard;
  const target = guard.target;
  const actor = getAdminById(actorId);
  const result = transaction((tx) => {
    if (target.isActive) {
      const n = tx.select({ n: count() }).from(admins).where(eq(admins.isActive, true)).get();
      if ((n?.n ?? 0) <= 1) return null;
    }
    const moved = tx.$client
      .prepare(
        `INSERT OR IGNORE INTO request_assignees (request_id, admin_id, assigned_at)
         SELECT request_id, ?, assigned_at FROM request_assignees WHERE admin_id = ?`,
      )
      .run(actorId, targetId).changes;
    tx.delete(requestAssignees).where(eq(requestAssignees.adminId, targetId)).run();
    // Their follow-ups become the deleting admin's tasks (ADR 351), like their requests.
    tx.update(followUps).set({ adminId: actorId }).where(eq(followUps.adminId, targetId)).run();
    const invites = tx
      .update(invitations)
      .set({ invitedBy: actorId })
      .where(eq(invitations.invitedBy, targetId))
      .run().changes;
    tx.delete(admins).where(eq(admins.id, targetId)).run();
    return { moved, invites };
  });
  if (!result) {
    return failure(400, "Der letzte aktive Admin kann nicht gelöscht werden.");
  }
  audit(adminActor(actorId), "account-deleted", target.username, {
    anfragenUebertragen: result.moved,
    einladungenUebertragen: result.invites,
  });
  queueMail({
    to: target.email,
    subject: "Ihr Admin-Zugang wurde entfernt",
    kind: "account-deleted",
    content: {
      greeting: `Hallo ${target.username},`,
      paragraphs: [
        `Ihr Admin-Zugang bei ${branding().name} wurde von ${actor?.username ?? "einem anderen Admin"} gelöscht. Sie können sich nicht mehr anmelden.`,
        "Ihre zugewiesenen Anfragen und Einladungen wurden übertragen. Falls Sie Fragen haben, wenden Sie sich bitte an das Team.",
      ],
    },
  });
  return { ok: true, transferredAssignments: result.moved, transferredInvitations: result.invites };
}
