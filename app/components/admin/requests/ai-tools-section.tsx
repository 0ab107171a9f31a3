import { useEffect, useId, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, inputClass } from "~/components/ui/field";
import type { RequestJson } from "~/lib/request-json";
import { CopyButton } from "./copy-button";
import { useActionUrl } from "./detail-context";

type PromptResult = { intent?: string; id?: number; prompt?: string; error?: string };

/** The prompt generator: with the KI a written prompt, without it the German template (always enabled). */
export function AiToolsSection({
  request,
  aiConfigured,
}: {
  request: RequestJson;
  aiConfigured: boolean;
}) {
  const fetcher = useFetcher<PromptResult>();
  const actionData = useActionData() as PromptResult | undefined;
  const action = useActionUrl(request.id);
  const fromPage =
    actionData?.intent === "prompt" && actionData.id === request.id ? actionData : undefined;
  const result = fetcher.data ?? fromPage;
  const uid = useId();
  // The result lands below the button, often below the fold: bring it into view and focus it.
  // Without JS the post's answer page opens at its anchor.
  const resultId = `prompt-result-${request.id}`;
  const resultRef = useRef<HTMLDivElement>(null);
  const promptRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!fetcher.data) return;
    if (promptRef.current) promptRef.current.focus();
    else resultRef.current?.scrollIntoView({ block: "nearest" });
  }, [fetcher.data]);
  const formAction = action.includes("#") ? `${action.split("#")[0]}#${resultId}` : action;
  return (
    <div className="space-y-3">
      <fetcher.Form method="post" action={formAction}>
        <input type="hidden" name="intent" value="prompt" />
        <input type="hidden" name="id" value={request.id} />
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle"
            ? "Prompt wird erstellt …"
            : "Prompt für KI-Coding-Assistent erstellen"}
        </Button>
      </fetcher.Form>
      {aiConfigured ? null : (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Ohne eingerichtete KI entsteht der Prompt aus einer Vorlage (ohne E-Mail und Telefon).
        </p>
      )}
      <div id={resultId} ref={resultRef} className="scroll-mt-4 space-y-3">
        {result?.error ? <Alert>{result.error}</Alert> : null}
        {result?.prompt ? (
          <div className="space-y-2">
            <label htmlFor={`${uid}-prompt`} className="block text-sm font-medium">
              Prompt
            </label>
            <textarea
              id={`${uid}-prompt`}
              readOnly
              rows={12}
              value={result.prompt}
              ref={promptRef}
              className={`${inputClass} scroll-mt-12 font-mono text-xs`}
            />
            <CopyButton
              text={result.prompt}
              label="Prompt kopieren"
              success="Prompt in die Zwischenablage kopiert!"
              failure="Fehler beim Kopieren in die Zwischenablage!"
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}
