import { and, asc, eq, gte } from "drizzle-orm";
import {
  mentionedNames,
  NOTE_EDIT_WINDOW_MS,
  NOTE_MESSAGES,
  type NoteInput,
  type NoteJson,
} from "~/lib/request-notes";
import { requestNotes, requests } from "~db/schema";
import { db, transaction } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import { audit } from "../privacy/audit.server";
import { NOT_FOUND, requestTarget } from "../requests/manage.server";
import { inIds } from "../requests/serialize.server";
import { type MentionedAdmin, notifyMentions, resolveMentions } from "./mentions.server";

/**
 * Internal notes on a request (ADR 350): one rule for the page and `/api/admin/requests/{id}/notes`.
 * The author edits or deletes within NOTE_EDIT_WINDOW_MS, decided by one conditional statement
 * (author and time in its WHERE), so a late or foreign edit changes nothing even in a race.
 * Audited without the text; erased with the request.
 */

type Author = { id: number; username: string };
export type NoteResult = { ok: true; note: NoteJson; mentioned: string[] } | Failure;

function toJson(row: typeof requestNotes.$inferSelect): NoteJson {
  return {
    id: row.id,
    requestId: row.requestId,
    body: row.body,
    author: row.adminName,
    authorId: row.adminId,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    mentions: row.mentions,
  };
}

/** The notes of `ids` (oldest first), grouped by request. */
export function notesOf(ids: number[]): Map<number, NoteJson[]> {
  const out = new Map<number, NoteJson[]>();
  if (!ids.length) return out;
  const rows = db()
    .select()
    .from(requestNotes)
    .where(inIds(requestNotes.requestId, ids))
    .orderBy(asc(requestNotes.id))
    .all();
  for (const row of rows) {
    const list = out.get(row.requestId) ?? [];
    list.push(toJson(row));
    out.set(row.requestId, list);
  }
  return out;
}

const requestExists = (id: number) =>
  Boolean(db().select({ id: requests.id }).from(requests).where(eq(requests.id, id)).get());

/** The mentions of a text, each an active admin; else the 400 at the field (nothing stored). */
function mentionsOf(body: string): { ok: true; admins: MentionedAdmin[] } | Failure {
  const names = mentionedNames(body);
  const { found, unknown } = resolveMentions(names);
  if (unknown.length) return failure(400, NOTE_MESSAGES.unknownMention(unknown), "body");
  return { ok: true, admins: found };
}

/** "Notiz speichern": stores the note and mails each mentioned admin (not the author) a link. */
export function addNote(requestId: number, author: Author, input: NoteInput): NoteResult {
  if (!requestExists(requestId)) return NOT_FOUND;
  const mentions = mentionsOf(input.body);
  if (!mentions.ok) return mentions;
  const row = db()
    .insert(requestNotes)
    .values({
      requestId,
      adminId: author.id,
      adminName: author.username,
      body: input.body,
      mentions: mentions.admins.map((a) => a.username),
    })
    .returning()
    .get();
  const mentioned = notifyMentions(mentions.admins, author, requestId);
  audit(author, "note-added", requestTarget(requestId), {
    note: row.id,
    erwaehnt: mentioned.length,
  });
  return { ok: true, note: toJson(row), mentioned };
}

/** Why a conditional change of a note found nothing: gone, someone else's, or too late. */
function refusal(requestId: number, noteId: number, authorId: number): Failure {
  const row = db()
    .select({ adminId: requestNotes.adminId, requestId: requestNotes.requestId })
    .from(requestNotes)
    .where(eq(requestNotes.id, noteId))
    .get();
  if (!row || row.requestId !== requestId) return failure(404, NOTE_MESSAGES.notFound);
  if (row.adminId !== authorId) return failure(403, NOTE_MESSAGES.notAuthor, "body");
  return failure(409, NOTE_MESSAGES.tooLate, "body");
}

const editable = (requestId: number, noteId: number, authorId: number, now: number) =>
  and(
    eq(requestNotes.id, noteId),
    eq(requestNotes.requestId, requestId),
    eq(requestNotes.adminId, authorId),
    gte(requestNotes.createdAt, new Date(now - NOTE_EDIT_WINDOW_MS)),
  );

/** "Bearbeiten" by the author within 15 minutes; newly mentioned admins are told. */
export function editNote(
  requestId: number,
  noteId: number,
  author: Author,
  input: NoteInput,
  now = Date.now(),
): NoteResult {
  const mentions = mentionsOf(input.body);
  if (!mentions.ok) return mentions;
  const changed = transaction((tx) => {
    const before = tx
      .select({ mentions: requestNotes.mentions })
      .from(requestNotes)
      .where(editable(requestId, noteId, author.id, now))
      .get();
    if (!before) return null;
    const row = tx
      .update(requestNotes)
      .set({
        body: input.body,
        mentions: mentions.admins.map((a) => a.username),
        editedAt: new Date(now),
      })
      .where(eq(requestNotes.id, noteId))
      .returning()
      .get();
    return { row, before: new Set(before.mentions.map((n) => n.toLowerCase())) };
  });
  if (!changed) return refusal(requestId, noteId, author.id);
  const added = mentions.admins.filter((a) => !changed.before.has(a.username.toLowerCase()));
  const mentioned = notifyMentions(added, author, requestId);
  audit(author, "note-edited", requestTarget(requestId), { note: noteId });
  return { ok: true, note: toJson(changed.row), mentioned };
}

/** "Löschen" by the author within 15 minutes. */
export function deleteNote(
  requestId: number,
  noteId: number,
  author: Author,
  now = Date.now(),
): { ok: true } | Failure {
  const removed = db()
    .delete(requestNotes)
    .where(editable(requestId, noteId, author.id, now))
    .run().changes;
  if (!removed) return refusal(requestId, noteId, author.id);
  audit(author, "note-deleted", requestTarget(requestId), { note: noteId });
  return { ok: true };
}
