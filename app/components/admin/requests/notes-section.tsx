import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { formatDateTime } from "~/lib/format";
import { NOTE_BODY_MAX, NOTE_MESSAGES, type NoteJson, noteEditable } from "~/lib/request-notes";
import type { DetailContext, HeadingLevel } from "./detail-context";
import { useDoneNote, useFetcherAnswer, useWorkAnswer, type WorkAnswer } from "./work-answer";

/**
 * "Notizen" (ADR 350): the team's internal notes on a request, oldest first — author, time, the
 * text as typed (line breaks kept, rendered as text) — and a form for a new one. `@username`
 * tells that admin by mail. The author edits or deletes a note within 15 minutes. Real forms:
 * without JS the page posts and answers with a toast, or the draft and its message.
 */
export function NotesSection({
  requestId,
  notes,
  ctx,
  action,
  level,
}: {
  requestId: number;
  notes: NoteJson[];
  ctx: DetailContext;
  action: string;
  level: HeadingLevel;
}) {
  const fetcher = useFetcher();
  const uid = useId();
  const post = useFetcherAnswer(fetcher);
  const answer = useWorkAnswer(post.data, "note-add", requestId);
  const done = useDoneNote(fetcher.state, post.data);
  const Heading = `h${level}` as "h2" | "h4";
  // The hint's examples: the newest colleagues first (the ones whose usernames are least known;
  // `ctx.admins` is oldest first).
  const mentionable = ctx.admins.filter((a) => a.is_active && a.id !== ctx.adminId).reverse();
  return (
    <div className="space-y-4 text-sm" data-notes="">
      {notes.length ? (
        <ol className="space-y-3" aria-label="Notizen">
          {notes.map((note) => (
            <NoteItem
              key={note.id}
              note={note}
              requestId={requestId}
              action={action}
              editable={ctx.adminId !== undefined && noteEditable(note, ctx.adminId)}
            />
          ))}
        </ol>
      ) : (
        <p className="text-slate-600 dark:text-slate-400">Noch keine Notizen.</p>
      )}
      <fetcher.Form
        method="post"
        action={action}
        onSubmit={post.onSubmit}
        className="space-y-2"
        aria-labelledby={`${uid}-title`}
        // A new note in the list empties the form; a refused one keeps the draft.
        key={notes.length}
      >
        <Heading id={`${uid}-title`} className="font-semibold">
          Neue Notiz
        </Heading>
        {done.shown ? (
          <p
            ref={done.ref}
            tabIndex={-1}
            data-note-saved=""
            className="rounded-lg bg-green-50 p-2 text-green-900 focus:outline-none dark:bg-green-950 dark:text-green-200"
          >
            {NOTE_MESSAGES.added}
          </p>
        ) : null}
        <input type="hidden" name="intent" value="note-add" />
        <input type="hidden" name="id" value={requestId} />
        <NoteField
          id={`${uid}-body`}
          label="Notiz"
          answer={answer}
          hint={
            mentionable.length
              ? `Nur für das Team sichtbar. Mit @Benutzername benachrichtigen Sie per E-Mail, z. B. ${mentionable
                  .slice(0, 3)
                  .map((a) => `@${a.username}`)
                  .join(", ")}.`
              : "Nur für das Team sichtbar."
          }
        />
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Wird gespeichert …" : "Notiz speichern"}
        </Button>
      </fetcher.Form>
    </div>
  );
}

/** The text area of a note (new or edited) with its hint and the refused post's message. */
function NoteField({
  id,
  label,
  answer,
  hint,
  defaultValue = "",
}: {
  id: string;
  label: string;
  answer: WorkAnswer | undefined;
  hint: string;
  defaultValue?: string;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const error = answer ? (answer.fieldErrors.body ?? [answer.error]) : undefined;
  // A refused note: with JS the text area (with the draft) takes the focus. Without JS the page
  // comes back at the form's anchor ("#notizen" in the full-screen view), where the browser skips
  // autoFocus; the field and its message are in view there.
  useEffect(() => {
    if (answer) ref.current?.focus();
  }, [answer]);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium">
        {label}
      </label>
      <textarea
        ref={ref}
        id={id}
        name="body"
        required
        rows={4}
        maxLength={NOTE_BODY_MAX}
        defaultValue={answer?.values.body ?? defaultValue}
        autoFocus={Boolean(answer)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={inputClass}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {hint}
      </p>
      <FieldErrors id={`${id}-error`} errors={error} />
    </div>
  );
}

function NoteItem({
  note,
  requestId,
  action,
  editable,
}: {
  note: NoteJson;
  requestId: number;
  action: string;
  editable: boolean;
}) {
  const fetcher = useFetcher();
  const uid = useId();
  const post = useFetcherAnswer(fetcher);
  const answer = useWorkAnswer(post.data, "note-edit", requestId, note.id);
  // A refused edit keeps its form open (also after a no-JS post).
  const open = Boolean(answer);
  return (
    <li
      className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
      data-note-id={note.id}
    >
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <span className="font-semibold text-slate-800 dark:text-slate-200">{note.author}</span> ·{" "}
        {formatDateTime(note.createdAt)}
        {note.editedAt ? " · bearbeitet" : ""}
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words">{note.body}</p>
      {editable || answer ? (
        <div className="mt-2 flex flex-wrap items-start gap-2">
          <details className="min-w-0 flex-1" open={open || undefined}>
            <summary className="cursor-pointer text-indigo-700 dark:text-indigo-300">
              Bearbeiten
              <span className="sr-only"> (Notiz von {formatDateTime(note.createdAt)})</span>
            </summary>
            <fetcher.Form
              method="post"
              action={action}
              onSubmit={post.onSubmit}
              className="mt-2 space-y-2"
            >
              <input type="hidden" name="intent" value="note-edit" />
              <input type="hidden" name="id" value={requestId} />
              <input type="hidden" name="noteId" value={note.id} />
              {answer && !answer.fieldErrors.body ? <Alert>{answer.error}</Alert> : null}
              <NoteField
                id={`${uid}-edit`}
                label="Notiz bearbeiten"
                answer={answer}
                defaultValue={note.body}
                hint="Bis 15 Minuten nach dem Schreiben änderbar."
              />
              <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
                Änderung speichern
              </Button>
            </fetcher.Form>
          </details>
          <ConfirmAction
            fields={{ intent: "note-delete", id: String(requestId), noteId: String(note.id) }}
            action={action}
            title={NOTE_MESSAGES.deleteTitle}
            message={NOTE_MESSAGES.deleteConfirm}
            label="Löschen"
            aria-label={`Notiz von ${formatDateTime(note.createdAt)} löschen`}
            confirmLabel="Löschen"
          />
        </div>
      ) : null}
    </li>
  );
}
