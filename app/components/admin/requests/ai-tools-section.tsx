import { useId } from "react";
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
  return (
    <div className="space-y-3">
      <fetcher.Form method="post" action={action}>
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
            className={`${inputClass} font-mono text-xs`}
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
  );
}
