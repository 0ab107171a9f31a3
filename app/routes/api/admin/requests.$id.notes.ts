import { NoteSchema } from "~/lib/request-notes";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";
import { addNote, notesOf } from "~/server/notes/notes.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { loadRequestJson } from "~/server/requests/serialize.server";

/** GET /api/admin/requests/{id}/notes → {notes} (oldest first; ADR 350), scope `notes:read`. */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Notizen", scope: "notes:read", id: REQUEST_ID },
  ({ id }) => {
    if (!loadRequestJson(id))
      return Response.json({ success: false, error: "Anfrage nicht gefunden." }, { status: 404 });
    return noStoreJson({ notes: notesOf([id]).get(id) ?? [] });
  },
);

/**
 * POST /api/admin/requests/{id}/notes {body} → 201 {note, mentioned}: the page's "Notiz
 * speichern" — `@username` mails that admin a link; an unknown or inactive one → 400 at `body`.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Speichern der Notiz",
    scope: "notes:write",
    methods: ["POST"],
    allow: "GET, POST",
    id: REQUEST_ID,
    schema: NoteSchema,
  },
  ({ id, body, admin }) => {
    const result = addNote(id, admin, body);
    if (!result.ok) return failureJson(result);
    return Response.json(
      { success: true, note: result.note, mentioned: result.mentioned },
      { status: 201 },
    );
  },
);
