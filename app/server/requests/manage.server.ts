import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { stageForStatus } from "~/lib/pipeline";
import type { RequestJson } from "~/lib/request-json";
import { REQUEST_STATUSES } from "~/lib/request-status";
import { admins, attachments, requestAssignees, requestStatusHistory, requests } from "~db/schema";
import { pipeline } from "../pipeline/config.server";
import { announceMove, type StageMove, writeMove } from "../pipeline/move.server";
import { type Db, db, transaction } from "../platform/db.server";
import { type Failure, failure, type Result } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { eraseRequest } from "../privacy/erasure.server";
import { deleteStoredFile } from "../uploads/store.server";
import { loadRequestJson } from "./serialize.server";
import { requestTarget } from "./target.server";

export const NOT_FOUND = failure(404, "Anfrage nicht gefunden.");

/** A request's status (the page's status select and the JSON `status`). */
export const RequestStatusSchema = z.enum(REQUEST_STATUSES, {
  error: "Unbekannter Status. Erlaubt: New, In Progress, Done.",
});

/** Preparation texts by field name (the page's `prep.<name>` text areas and the JSON object). */
export const PreparationDataSchema = z.record(
  z.string().max(100),
  z.string().max(20_000, "Der Text ist zu lang (max. 20.000 Zeichen)."),
  { error: "preparationData muss ein Objekt aus Feldname und Text sein." },
);

/**
 * The one schema of a request update (ADR 240): the body of PUT /api/admin/requests/{id}, PATCH
 * /api/requests/{id} and /archive; the requests page builds its intents from these fields.
 */
export const RequestUpdateSchema = z.object({
  status: RequestStatusSchema.optional(),
  preparationData: PreparationDataSchema.optional(),
  archived: z.boolean({ error: "archived muss true oder false sein." }).optional(),
  /** false releases a quarantined request (spam check, ADR 252); nothing puts one back. */
  quarantined: z
    .literal(false, {
      error: "quarantined kann nur auf false gesetzt werden (Anfrage freigeben).",
    })
    .optional(),
  updatedAt: z
    .string()
    .datetime({ offset: true, error: "updatedAt muss ein ISO-Zeitstempel sein." })
    .optional(),
});
export type RequestUpdate = z.infer<typeof RequestUpdateSchema>;

/** A 409: `updatedAt` is the stored request's time, for a client that decides to save anyway. */
export type Conflict = Failure & { status: 409; updatedAt: string };

export const CONFLICT_MESSAGE =
  "Die Anfrage wurde inzwischen von jemand anderem geändert. Bitte laden Sie sie neu.";

/**
 * Applies status / preparation / archive changes. `updatedAt` is the time the client's change is
 * based on (the spec's client sends the time of its change). The change is refused with 409 only
 * when a field it writes was changed by someone else since: the preparation texts after
 * `preparationUpdatedAt`, the status after its last history entry. Other changes (an assignee, the
 * archive flag, the other field) are no conflict.
 */
export function updateRequest(
  id: number,
  update: RequestUpdate,
  actor: AuditActor = "System",
): Result<{ request: RequestJson }> | Conflict {
  let move: StageMove | null = null;
  let archivedNow: boolean | null = null;
  let editedFields: string[] = [];
  const result = transaction((tx): Failure | Conflict | null => {
    const row = tx.select().from(requests).where(eq(requests.id, id)).get();
    if (!row) return NOT_FOUND;
    if (update.updatedAt && changedSince(tx, row, update, new Date(update.updatedAt))) {
      return {
        ...failure(409, CONFLICT_MESSAGE),
        status: 409,
        updatedAt: row.updatedAt.toISOString(),
      };
    }
    const set: Partial<typeof requests.$inferInsert> = {
      updatedAt: new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1)),
    };
    // A status moves the request to the first stage of that status, unless its stage already
    // maps to it (ADR 345); the move writes the status, the stage and the history row, at the
    // row's new time (strictly after the previous one: the conflict check compares it).
    if (update.status) {
      move = writeMove(tx, row, stageForStatus(pipeline(), row.stage, update.status), {
        at: set.updatedAt as Date,
        adminId: typeof actor === "string" ? null : actor.id,
        cause: "status",
      });
    }
    if (update.archived !== undefined) set.archived = update.archived;
    if (update.archived !== undefined && update.archived !== row.archived)
      archivedNow = update.archived;
    if (update.preparationData) {
      const merged = { ...row.preparationData, ...update.preparationData };
      if (JSON.stringify(merged) !== JSON.stringify(row.preparationData)) {
        set.preparationData = merged;
        set.preparationUpdatedAt = set.updatedAt;
        const before = row.preparationData ?? {};
        editedFields = Object.keys(merged).filter((k) => merged[k] !== before[k]);
      }
    }
    tx.update(requests).set(set).where(eq(requests.id, id)).run();
    return null;
  });
  if (result) return result;
  // Assigned inside the transaction's callback (TypeScript cannot see that, hence the cast).
  const change = move as StageMove | null;
  // Audit and webhooks; a quarantined request is unknown outside the admin pages (ADR 252).
  if (change) announceMove(change, actor);
  // Archive and preparation edits are audited too (ADR 319): the field names, never the texts.
  if (archivedNow !== null) audit(actor, archivedNow ? "archive" : "unarchive", requestTarget(id));
  if (editedFields.length)
    audit(actor, "preparation-edited", requestTarget(id), { felder: editedFields });
  const request = loadRequestJson(id);
  return request ? { ok: true, request } : NOT_FOUND;
}

/** Whether a field the update writes was changed after `basis` (by someone else). */
function changedSince(
  tx: Db,
  row: typeof requests.$inferSelect,
  update: RequestUpdate,
  basis: Date,
): boolean {
  const time = basis.getTime();
  if (
    update.preparationData &&
    row.preparationUpdatedAt &&
    row.preparationUpdatedAt.getTime() > time
  )
    return true;
  // A caller that saw the row as it is now saw its status: rows from before migration 0012 can have
  // a status change stamped a few ms after their updated_at, which is no conflict.
  if (update.status && update.status !== row.status && time < row.updatedAt.getTime()) {
    const last = tx
      .select({ changedAt: requestStatusHistory.changedAt })
      .from(requestStatusHistory)
      .where(eq(requestStatusHistory.requestId, row.id))
      .orderBy(desc(requestStatusHistory.changedAt))
      .limit(1)
      .get();
    if (last && last.changedAt.getTime() > time) return true;
  }
  return false;
}

export function setArchived(id: number, archived: boolean, actor?: AuditActor) {
  return updateRequest(id, { archived }, actor);
}

const ADMIN_ID_INVALID = "admin_id fehlt oder ist ungültig.";

/** The admin of an assignment: a positive integer (a numeric string is taken too). */
export const AssigneeIdSchema = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
  z
    .number({ error: ADMIN_ID_INVALID })
    .int({ error: ADMIN_ID_INVALID })
    .positive({ error: ADMIN_ID_INVALID }),
);

/** Body of POST /api/admin/requests/{id}/assign; the page's `op`/`adminId` use its fields. */
export const AssignSchema = z.object({
  action: z.enum(["add", "remove"], { error: 'action muss "add" oder "remove" sein.' }),
  admin_id: AssigneeIdSchema,
});

/**
 * Adds or removes an assignee. Nothing to change (already assigned, deactivated, not assigned) is
 * a failure with status 200: the spec answers it `actionPerformed: false` with the message.
 */
export function assignRequest(
  id: number,
  action: "add" | "remove",
  adminId: number,
  actor: AuditActor = "System",
): Result<{ message: string; request: RequestJson | undefined }> {
  const request = db().select({ id: requests.id }).from(requests).where(eq(requests.id, id)).get();
  if (!request) return NOT_FOUND;
  const admin = db().select().from(admins).where(eq(admins.id, adminId)).get();
  if (!admin) return failure(404, "Admin nicht gefunden.");
  if (action === "add") {
    if (!admin.isActive) {
      return failure(200, `${admin.username} ist deaktiviert und kann nicht zugewiesen werden.`);
    }
    const inserted = db()
      .insert(requestAssignees)
      .values({ requestId: id, adminId })
      .onConflictDoNothing()
      .run();
    touch(id);
    if (inserted.changes) audit(actor, "assign", requestTarget(id), { admin: admin.username });
    return inserted.changes
      ? {
          ok: true,
          message: `${admin.username} wurde zugewiesen.`,
          request: loadRequestJson(id) ?? undefined,
        }
      : failure(200, `${admin.username} ist bereits zugewiesen.`);
  }
  const removed = db()
    .delete(requestAssignees)
    .where(and(eq(requestAssignees.requestId, id), eq(requestAssignees.adminId, adminId)))
    .run();
  touch(id);
  if (removed.changes) audit(actor, "unassign", requestTarget(id), { admin: admin.username });
  return removed.changes
    ? {
        ok: true,
        message: `Zuweisung von ${admin.username} entfernt.`,
        request: loadRequestJson(id) ?? undefined,
      }
    : failure(200, `${admin.username} war nicht zugewiesen.`);
}

/** updated_at only moves forward (conflict checks compare against it), also within one ms. */
export const laterUpdatedAt = (now = Date.now()) => sql`max(${requests.updatedAt} + 1, ${now})`;

function touch(id: number) {
  db().update(requests).set({ updatedAt: laterUpdatedAt() }).where(eq(requests.id, id)).run();
}

/** Deletes a request and erases every trace of the person's data in it (see eraseRequest). */
export async function deleteRequest(id: number, actor: AuditActor = "System"): Promise<Result> {
  const result = await eraseRequest(id);
  if (!result.ok) return NOT_FOUND;
  audit(actor, "delete", requestTarget(id), {
    dateien: result.files,
    emails: result.mails,
    termine: result.appointments,
  });
  return { ok: true };
}

/** Removes one attachment row and its file. */
export async function deleteAttachment(requestId: number, attachmentId: number): Promise<Result> {
  const row = db()
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, attachmentId), eq(attachments.requestId, requestId)))
    .get();
  if (!row) return failure(404, "Anhang nicht gefunden.");
  db().delete(attachments).where(eq(attachments.id, attachmentId)).run();
  touch(requestId);
  await deleteStoredFile(row.filename);
  return { ok: true };
}

/** The attachment row behind a storage key (for GET /api/uploads/{filename}). */
/**
 * The attachment behind a stored file name; with `viewer`, its opening is audited (once per
 * opening: a range request that continues a download or seeks in a recording is not a new one).
 */
export function findAttachment(filename: string, viewer?: { actor: AuditActor; request: Request }) {
  const row = db().select().from(attachments).where(eq(attachments.filename, filename)).get();
  const range = viewer?.request.headers.get("range");
  if (row && viewer && (!range || /^bytes=0-/.test(range))) {
    audit(viewer.actor, "attachment-downloaded", requestTarget(row.requestId), { anhang: row.id });
  }
  return row;
}

export { requestTarget };
