import { useEffect, useRef, useState } from "react";
import { useActionData } from "react-router";

/** A refused note or follow-up form (routes/admin/request-work.server.ts): the draft comes back. */
export type WorkAnswer = {
  intent: string;
  id: number;
  noteId?: number;
  error: string;
  fieldErrors: Record<string, string[] | undefined>;
  values: Record<string, string | undefined>;
};

const isAnswer = (value: unknown): value is WorkAnswer =>
  Boolean(value) &&
  typeof value === "object" &&
  typeof (value as WorkAnswer).intent === "string" &&
  typeof (value as WorkAnswer).error === "string";

/**
 * The answer to this form's last post, if it was refused: from its fetcher (with JS) or the
 * page's action data (without JS), matched by intent, request and note.
 */
export function useWorkAnswer(
  fetcherData: unknown,
  intent: string,
  id: number,
  noteId?: number,
): WorkAnswer | undefined {
  const actionData = useActionData();
  return [fetcherData, actionData].find(
    (a): a is WorkAnswer =>
      isAnswer(a) &&
      a.intent === intent &&
      a.id === id &&
      (noteId === undefined || a.noteId === noteId),
  );
}

/**
 * A fetcher form's answer to its last post only. A post the action answers with a redirect leaves
 * the fetcher's data as it was, so a refusal before it would show again (the draft and its message
 * back in the emptied form, no "gespeichert" line): what the form showed when the admin posted
 * counts as gone. `onSubmit` goes on the form and notes it (ADR 361).
 *
 * Noted at the submit event, not from the fetcher's state: React Router hands new data over at once
 * but its new state in a transition, so a render on a slow device can see "submitting" beside the
 * answer that just arrived (a refused note read "Notiz gespeichert." at 8x CPU throttling when the
 * data was noted from such a render).
 */
export function useFetcherAnswer(fetcher: { data: unknown }) {
  const [stale, setStale] = useState<unknown>(undefined);
  const seen = fetcher.data;
  return {
    data: seen === stale ? undefined : seen,
    onSubmit: () => setStale(seen),
  };
}

/**
 * With JavaScript: after a post that was not refused (the action redirects, so the fetcher has
 * no new data) a short line near the form shows and takes the focus — the emptied form would drop it
 * to <body>. Notes, follow-ups, tasks, and the message to the lead ("gesendet", ADR 348). `data`
 * is the answer to the last post only (`useFetcherAnswer`; the tasks' fetcher only redirects).
 */
export function useDoneNote(state: string, data: unknown) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [shown, setShown] = useState(false);
  const was = useRef(state);
  useEffect(() => {
    const finished = was.current !== "idle" && state === "idle";
    was.current = state;
    if (state !== "idle") setShown(false);
    else if (finished && !data) setShown(true);
  }, [state, data]);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return { ref, shown };
}
