import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import type { AdminRequestJson } from "~/lib/request-json";
import { useActionUrl } from "./detail-context";

const STATUS_TEXT = {
  pending: "Die Sprachnachricht wird transkribiert …",
  failed: "Die Transkription ist fehlgeschlagen.",
  off: "Transkription ist nicht eingerichtet.",
} as const;

/**
 * The transcript under the voice player (ADR 272): the text when done, else its state;
 * "Erneut transkribieren" posts the page's `retranscribe` intent (works without JS).
 */
export function VoiceTranscript({
  request,
  transcriptionConfigured = false,
  level = 5,
  anchor,
}: {
  request: AdminRequestJson;
  transcriptionConfigured?: boolean;
  /** Under "Sprachnachricht": 3 in the row's tabs, 5 in the full-screen view and without JS. */
  level?: 3 | 5;
  /** The block's id: without JS the post lands on it (the full-screen view scrolls on its own). */
  anchor?: string;
}) {
  const fetcher = useFetcher();
  const action = useActionUrl(request.id, anchor);
  const status = request.voiceTranscriptStatus;
  const busy = fetcher.state !== "idle";
  const block = useRef<HTMLDivElement>(null);
  const started = useRef(false);
  // The button goes while the new transcription is pending: its state line takes the focus.
  useEffect(() => {
    if (busy) started.current = true;
    else if (started.current) {
      started.current = false;
      const line = block.current?.querySelector<HTMLElement>("[data-transcript-status]");
      (line ?? block.current)?.focus();
    }
  }, [busy]);
  if (!status) return null;
  const H = `h${level}` as "h3" | "h5";
  return (
    <div
      ref={block}
      id={anchor}
      tabIndex={-1}
      className="scroll-mt-24 space-y-2 focus:outline-none"
      data-voice-transcript=""
    >
      <H className="font-medium text-slate-500 dark:text-slate-400">Transkript</H>
      {request.voiceTranscript ? (
        <blockquote className="whitespace-pre-wrap rounded-lg border-l-4 border-slate-300 bg-slate-50 p-3 dark:border-slate-600 dark:bg-slate-800/60">
          {request.voiceTranscript}
        </blockquote>
      ) : null}
      {status !== "done" ? (
        <p
          className="text-slate-600 dark:text-slate-300"
          data-transcript-status={status}
          role="status"
          tabIndex={-1}
        >
          {STATUS_TEXT[status]}
        </p>
      ) : null}
      {transcriptionConfigured && status !== "pending" ? (
        <fetcher.Form method="post" action={action}>
          <input type="hidden" name="intent" value="retranscribe" />
          <input type="hidden" name="id" value={request.id} />
          <Button type="submit" variant="secondary" size="sm" disabled={busy}>
            {busy ? "Wird gestartet …" : "Erneut transkribieren"}
          </Button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}
