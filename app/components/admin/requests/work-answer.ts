import { useEffect, useLayoutEffect, useRef, useState } from "react";
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
 * A fetcher's data from its last post only. A post the action answers with a redirect leaves the
 * fetcher's data as it was, so a refusal before it would show again (the draft and its message
 * back in the emptied form, no "gespeichert" line): the data the form showed when a post started
 * counts as gone.
 *
 * "Showed" means committed: React Router hands a fetcher's new data over at once but its new state
 * in a transition, so a render on a slow device can still see "submitting" beside the answer that
 * just arrived. That answer must not count as the old one (it did: a refused note read "Notiz
 * gespeichert." at 8x CPU throttling), so the data is noted in a layout effect, when an idle render
 * has been committed, and only that noted data goes stale when a post begins.
 */
export function useFreshData(state: string, data: unknown): unknown {
  const shown = useRef<unknown>(data);
  const [stale, setStale] = useState<unknown>(undefined);
  useLayoutEffect(() => {
    if (state === "idle") shown.current = data;
    else setStale(shown.current);
  }, [state, data]);
  return data === stale ? undefined : data;
}

/**
 * With JavaScript: after a post that was not refused (the action redirects, so the fetcher has
 * no data) a short line near the form shows and takes the focus — the emptied form would drop it
 * to <body>. Notes, follow-ups, tasks, and the message to the lead ("gesendet", ADR 348).
 */
export function useDoneNote(state: string, lastData: unknown) {
  const data = useFreshData(state, lastData);
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
