import { VoicePlayer } from "~/components/ui/voice-player";
import type { RequestJson } from "~/lib/request-json";

export function RequestTextSection({ request }: { request: RequestJson }) {
  return (
    <div className="space-y-3 text-sm">
      {request.summary ? (
        <p className="rounded-lg bg-indigo-50 p-3 text-indigo-950 dark:bg-indigo-950 dark:text-indigo-100">
          <span className="font-semibold">Zusammenfassung: </span>
          {request.summary}
        </p>
      ) : null}
      <div>
        <h4 className="font-medium text-slate-500 dark:text-slate-400">Ursprüngliche Anfrage</h4>
        <p className="whitespace-pre-wrap">
          {request.description || "Keine Projektbeschreibung angegeben."}
        </p>
      </div>
      {request.audioPath ? (
        <div>
          <h4 className="mb-1 font-medium text-slate-500 dark:text-slate-400">Sprachnachricht</h4>
          <VoicePlayer audioPath={request.audioPath} className="w-full max-w-md" admin />
        </div>
      ) : null}
    </div>
  );
}
