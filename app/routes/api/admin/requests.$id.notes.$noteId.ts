import { NOTE_MESSAGES, NoteSchema } from "~/lib/request-notes";
import { type ApiArgs, adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError, parseId } from "~/server/http/http.server";
import { deleteNote, editNote } from "~/server/notes/notes.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";

/**
 * One note (ADR 350), scope `notes:write`: PATCH {body} → {note, mentioned}; DELETE → {success}.
 * Only the author within 15 minutes: another admin → 403, later → 409 (nothing changed).
 */
const ALLOW = "PATCH, DELETE";
const noteIdOf = (args: ApiArgs) => parseId(args.params.noteId);

const edit = adminApi(
  {
    fallback: "Fehler beim Ändern der Notiz",
    scope: "notes:write",
    methods: ["PATCH"],
    allow: ALLOW,
    id: REQUEST_ID,
    schema: NoteSchema,
  },
  ({ id, body, admin, args }) => {
    const noteId = noteIdOf(args);
    if (!noteId) return jsonError(NOTE_MESSAGES.notFound, 404);
    const result = editNote(id, noteId, admin, body);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, note: result.note, mentioned: result.mentioned });
  },
);

const remove = adminApi(
  {
    fallback: "Fehler beim Löschen der Notiz",
    scope: "notes:write",
    methods: ["DELETE"],
    allow: ALLOW,
    id: REQUEST_ID,
  },
  ({ id, admin, args }) => {
    const noteId = noteIdOf(args);
    if (!noteId) return jsonError(NOTE_MESSAGES.notFound, 404);
    const result = deleteNote(id, noteId, admin);
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, message: NOTE_MESSAGES.deleted });
  },
);

export const action = (args: ApiArgs) => (args.request.method === "DELETE" ? remove : edit)(args);

export const loader = onlyMethod(ALLOW, { admin: true });
