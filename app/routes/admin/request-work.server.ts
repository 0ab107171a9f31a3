import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { FollowUpSchema } from "~/lib/follow-ups";
import { NOTE_MESSAGES, NoteSchema } from "~/lib/request-notes";
import type { AdminUser } from "~/server/accounts/auth.server";
import { completeFollowUp, setFollowUp } from "~/server/follow-ups/follow-ups.server";
import { requireConfirmation } from "~/server/http/confirm.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId } from "~/server/http/http.server";
import { addNote, deleteNote, editNote } from "~/server/notes/notes.server";
import type { Failure } from "~/server/platform/result.server";

/**
 * The page intents of notes and follow-ups (ADRs 350, 351) — on the requests page (full-screen
 * view, row details) and the tasks page: the same rules and schemas as their `/api` twins. A
 * refused input comes back with its message at the field and the draft (status 4xx, nothing
 * changed); a success goes back to the page with a toast.
 */
export const WORK_INTENTS = [
  "note-add",
  "note-edit",
  "note-delete",
  "follow-up-set",
  "follow-up-done",
] as const;
export type WorkIntent = (typeof WORK_INTENTS)[number];
export const isWorkIntent = (value: unknown): value is WorkIntent =>
  typeof value === "string" && (WORK_INTENTS as readonly string[]).includes(value);

/** What a refused form gets back (read by the section that posted it). */
export type WorkAnswer = {
  intent: WorkIntent;
  id: number;
  noteId?: number;
  error: string;
  fieldErrors: Record<string, string[]>;
  values: Record<string, string>;
};

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

function refused(
  intent: WorkIntent,
  id: number,
  form: FormData,
  failed: { status: number; error: string; fieldErrors?: Record<string, string[]> },
  noteId?: number,
) {
  const values = Object.fromEntries(["body", "due", "text"].map((k) => [k, text(form, k)]));
  const answer: WorkAnswer = {
    intent,
    id,
    ...(noteId ? { noteId } : {}),
    error: failed.error,
    fieldErrors: failed.fieldErrors ?? {},
    values,
  };
  return data(answer, { status: failed.status });
}

const fromFailure = (f: Failure) => ({
  status: f.status,
  error: f.error,
  fieldErrors: f.field ? { [f.field]: [f.error] } : {},
});

/** The form's first error as a refusal (400) with all field errors. */
function invalidForm(errors: Record<string, string[] | null> | null | undefined) {
  const fieldErrors = Object.fromEntries(
    Object.entries(errors ?? {}).filter((e): e is [string, string[]] => Boolean(e[1]?.length)),
  );
  const first = Object.values(fieldErrors)[0]?.[0] ?? "Ungültige Eingabe.";
  return { status: 400, error: first, fieldErrors };
}

/** Handles one of WORK_INTENTS; `back` is the page to return to (with its state). */
export async function handleWorkIntent(
  intent: WorkIntent,
  form: FormData,
  admin: AdminUser,
  back: string,
) {
  const id = parseId(text(form, "id") || undefined);
  if (!id) return redirectWithToast(back, { type: "error", message: "Anfrage nicht gefunden." });
  const ok = (message: string) => redirectWithToast(back, { type: "success", message });
  const actor = { id: admin.id, username: admin.username };
  const noteId = parseId(text(form, "noteId") || undefined) ?? undefined;

  switch (intent) {
    case "note-add":
    case "note-edit": {
      const submission = parseWithZod(form, { schema: NoteSchema });
      if (submission.status !== "success")
        return refused(intent, id, form, invalidForm(submission.error), noteId);
      if (intent === "note-edit" && !noteId)
        return refused(intent, id, form, { status: 404, error: NOTE_MESSAGES.notFound });
      const result =
        intent === "note-add"
          ? addNote(id, actor, submission.value)
          : editNote(id, noteId as number, actor, submission.value);
      if (!result.ok) return refused(intent, id, form, fromFailure(result), noteId);
      const told = result.mentioned.length
        ? ` Benachrichtigt: ${result.mentioned.map((n) => `@${n}`).join(", ")}.`
        : "";
      return ok(`${intent === "note-add" ? NOTE_MESSAGES.added : NOTE_MESSAGES.edited}${told}`);
    }
    case "note-delete": {
      if (!noteId) return refused(intent, id, form, { status: 404, error: NOTE_MESSAGES.notFound });
      const step = requireConfirmation(form, {
        title: NOTE_MESSAGES.deleteTitle,
        message: NOTE_MESSAGES.deleteConfirm,
      });
      if (step) return step;
      const result = deleteNote(id, noteId, actor);
      if (!result.ok) return redirectWithToast(back, { type: "error", message: result.error });
      return ok(NOTE_MESSAGES.deleted);
    }
    case "follow-up-set": {
      const submission = parseWithZod(form, { schema: FollowUpSchema });
      if (submission.status !== "success")
        return refused(intent, id, form, invalidForm(submission.error));
      const result = setFollowUp(id, actor, submission.value);
      if (!result.ok) return refused(intent, id, form, fromFailure(result));
      const [y, m, d] = result.followUp.due.split("-");
      return ok(`Wiedervorlage für ${d}.${m}.${y} gesetzt.`);
    }
    case "follow-up-done": {
      const result = completeFollowUp(id, actor);
      if (!result.ok) return redirectWithToast(back, { type: "error", message: result.error });
      return ok("Wiedervorlage erledigt.");
    }
  }
}
