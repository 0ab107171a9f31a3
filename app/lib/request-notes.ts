import { z } from "zod";

// Internal notes on a request (ADR 350): plain text with line breaks, written by admins for
// admins; `@username` names a colleague who is told by mail. Never in webhooks, CSV or the
// visitor's pages.

export const NOTE_BODY_MAX = 5000;
/** The author may edit or delete a note this long after writing it. */
export const NOTE_EDIT_WINDOW_MS = 15 * 60_000;

export const NOTE_MESSAGES = {
  bodyRequired: "Bitte schreiben Sie eine Notiz.",
  bodyTooLong: `Die Notiz darf höchstens ${NOTE_BODY_MAX.toLocaleString("de-DE")} Zeichen lang sein.`,
  notFound: "Notiz nicht gefunden.",
  notAuthor: "Nur wer die Notiz geschrieben hat, kann sie bearbeiten oder löschen.",
  tooLate:
    "Eine Notiz lässt sich nur in den ersten 15 Minuten bearbeiten oder löschen. Schreiben Sie stattdessen eine neue Notiz.",
  unknownMention: (names: string[]) =>
    `${names.map((n) => `@${n}`).join(", ")} ${names.length === 1 ? "ist" : "sind"} kein aktiver Admin – niemand würde benachrichtigt. Bitte korrigieren Sie den Namen oder entfernen Sie das @.`,
  added: "Notiz gespeichert.",
  edited: "Notiz geändert.",
  deleted: "Notiz gelöscht.",
  deleteTitle: "Notiz löschen",
  deleteConfirm: "Möchten Sie diese Notiz wirklich löschen?",
} as const;

/** "Neue Notiz" / "Notiz bearbeiten": the form's and the API's one schema. */
export const NoteSchema = z.object({
  body: z
    .string({ error: NOTE_MESSAGES.bodyRequired })
    // Line breaks as typed (CRLF from a form becomes LF); blanks around the note dropped.
    .transform((s) => s.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z.string().min(1, NOTE_MESSAGES.bodyRequired).max(NOTE_BODY_MAX, NOTE_MESSAGES.bodyTooLong),
    ),
});
export type NoteInput = z.output<typeof NoteSchema>;

/** A note as the request JSON and the API carry it. */
export type NoteJson = {
  id: number;
  requestId: number;
  body: string;
  /** Username of the author at the time (kept when the admin is deleted). */
  author: string;
  authorId: number | null;
  createdAt: string;
  /** The last edit; null when never edited. */
  editedAt: string | null;
  /** Usernames the note mentions (as stored: each was an active admin then). */
  mentions: string[];
};

// An `@` that starts a word (not the one inside an e-mail address), then a username's characters
// (letters, digits, dot, hyphen, underscore: the username rule of auth-forms.ts).
const MENTION = /(?<![\p{L}\p{N}._@-])@([\p{L}\p{N}._-]+)/gu;

/**
 * The usernames a text mentions, in order, each once (case-insensitive); a trailing dot, hyphen or
 * underscore ends the sentence, not the name ("Bitte @anna.").
 */
export function mentionedNames(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const name = match[1].replace(/[._-]+$/, "");
    const key = name.toLowerCase();
    if (name.length && !seen.has(key)) {
      seen.add(key);
      names.push(name);
    }
  }
  return names;
}

/** Whether `author` may still edit or delete the note at `now` (by the same admin, ≤ 15 minutes). */
export function noteEditable(
  note: Pick<NoteJson, "authorId" | "createdAt">,
  adminId: number,
  now = Date.now(),
) {
  return note.authorId === adminId && now - Date.parse(note.createdAt) <= NOTE_EDIT_WINDOW_MS;
}
