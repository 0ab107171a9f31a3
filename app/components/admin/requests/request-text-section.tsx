import { VoicePlayer } from "~/components/ui/voice-player";
import type { AdminRequestJson } from "~/lib/request-json";
import type { HeadingLevel } from "./detail-context";
import { VoiceTranscript } from "./voice-transcript";

/** Shown instead of a summary while today's AI budget is used up (ADR 255). */
export const SUMMARY_HELD = "Zusammenfassung folgt morgen (Tageslimit der KI erreicht).";

export function RequestTextSection({
  request,
  summaryHeld = false,
  transcriptionConfigured = false,
  level = 4,
  fullScreen = false,
}: {
  request: AdminRequestJson;
  /** Level of "Ursprüngliche Anfrage" and "Sprachnachricht": 2 in the row's tabs, else 4 (under h3). */
  level?: HeadingLevel;
  /** In the full-screen view (its transcript block has the anchor the no-JS post lands on). */
  fullScreen?: boolean;
  /** TRANSCRIPTION_API_URL is set: "Erneut transkribieren" is offered. */
  transcriptionConfigured?: boolean;
  /** Today's AI budget is used up: a missing summary is written tomorrow. */
  summaryHeld?: boolean;
}) {
  const H = `h${level}` as "h2" | "h4";
  return (
    <div className="space-y-3 text-sm">
      {request.summary ? (
        <p className="rounded-lg bg-indigo-50 p-3 text-indigo-950 dark:bg-indigo-950 dark:text-indigo-100">
          <span className="font-semibold">Zusammenfassung: </span>
          {request.summary}
        </p>
      ) : summaryHeld ? (
        <p
          className="rounded-lg bg-slate-100 p-3 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
          data-summary-held=""
        >
          {SUMMARY_HELD}
        </p>
      ) : null}
      <div>
        <H className="font-medium text-slate-500 dark:text-slate-400">Ursprüngliche Anfrage</H>
        <p className="whitespace-pre-wrap">
          {request.description || "Keine Projektbeschreibung angegeben."}
        </p>
      </div>
      {request.audioPath ? (
        <div>
          <H className="mb-1 font-medium text-slate-500 dark:text-slate-400">Sprachnachricht</H>
          <VoicePlayer audioPath={request.audioPath} className="w-full max-w-md" admin />
          <div className="mt-3">
            <VoiceTranscript
              request={request}
              transcriptionConfigured={transcriptionConfigured}
              level={level === 2 ? 3 : 5}
              anchor={fullScreen ? "fullscreen-transcript" : undefined}
            />
          </div>
        </div>
      ) : null}
    </div>
  );
}
