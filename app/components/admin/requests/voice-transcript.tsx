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
 * The transcript under the voice player (issue 30, ADR 272): the text when done, else its state;
 * "Erneut transkribieren" posts the page's `retranscribe` intent (works without JS).
 */
export function VoiceTranscript({
  request,
  transcriptionConfigured = false,
}: {
  request: AdminRequestJson;
  transcriptionConfigured?: boolean;
}) {
  const fetcher = useFetcher();
  const action = useActionUrl(request.id);
  const status = request.voiceTranscriptStatus;
  if (!status) return null;
  const busy = fetcher.state !== "idle";
  return (
    <div className="space-y-2" data-voice-transcript="">
      <h4 className="font-medium text-slate-500 dark:text-slate-400">Transkript</h4>
      {request.voiceTranscript ? (
        <blockquote className="whitespace-pre-wrap rounded-lg border-l-4 border-slate-300 bg-slate-50 p-3 dark:border-slate-600 dark:bg-slate-800/60">
          {request.voiceTranscript}
        </blockquote>
      ) : null}
      {status !== "done" ? (
        <p className="text-slate-600 dark:text-slate-300" data-transcript-status={status}>
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
