import { eq } from "drizzle-orm";
import { WORK_MESSAGES, type WorkSettings } from "~/lib/work-settings";
import { admins } from "~db/schema";
import { db } from "../platform/db.server";
import { audit } from "../privacy/audit.server";

/**
 * An admin's own "Morgenübersicht und Abwesenheit" (ADRs 352, 353): the morning digest on or off
 * and an absence from–to that fair assignment skips. The page's form and
 * `PUT /api/admin/account/preferences` save through `saveWorkSettings`.
 */

export function workSettingsOf(adminId: number): WorkSettings {
  const row = db()
    .select({
      morningDigest: admins.morningDigest,
      absentFrom: admins.absentFrom,
      absentUntil: admins.absentUntil,
    })
    .from(admins)
    .where(eq(admins.id, adminId))
    .get();
  return row ?? { morningDigest: true, absentFrom: null, absentUntil: null };
}

/** Saves the whole set (a blank absence clears it); audited without the dates. */
export function saveWorkSettings(
  actor: { id: number; username: string },
  input: WorkSettings,
): { ok: true; settings: WorkSettings; message: string } {
  db()
    .update(admins)
    .set({
      morningDigest: input.morningDigest,
      absentFrom: input.absentFrom,
      absentUntil: input.absentUntil,
    })
    .where(eq(admins.id, actor.id))
    .run();
  audit(actor, "work-settings", actor.username, {
    morgenuebersicht: input.morningDigest,
    abwesenheit: Boolean(input.absentFrom),
  });
  return { ok: true, settings: workSettingsOf(actor.id), message: WORK_MESSAGES.saved };
}
