import { useId } from "react";
import { Link, useActionData, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, inputClass } from "~/components/ui/field";
import type { RequestJson } from "~/lib/request-json";
import { type DetailContext, useActionUrl } from "./detail-context";

function fieldValue(data: Record<string, string>, name: string) {
  const key = Object.keys(data).find((k) => k.toLowerCase() === name.toLowerCase());
  return key ? (data[key] ?? "") : "";
}

/** A refused preparation save (requests.server.ts: 409 conflict, 400 invalid text): the draft comes back. */
type Conflict = {
  intent: "preparation";
  id: number;
  error: string;
  updatedAt: string;
  preparationData: Record<string, string>;
};

function isConflict(value: unknown, id: number): value is Conflict {
  if (!value || typeof value !== "object") return false;
  const v = value as Partial<Conflict>;
  return v.intent === "preparation" && v.id === id && typeof v.updatedAt === "string";
}

export function PreparationSection({ request, ctx }: { request: RequestJson; ctx: DetailContext }) {
  const save = useFetcher();
  const auto = useFetcher();
  const uid = useId();
  const action = useActionUrl(request.id);
  const actionData = useActionData();
  // With JS the fetcher's answer, without JS the page's; stale once a newer state was loaded.
  const answer = save.data ?? actionData;
  const conflict =
    isConflict(answer, request.id) && Date.parse(answer.updatedAt) >= Date.parse(request.updatedAt)
      ? answer
      : null;
  const values = conflict ? conflict.preparationData : request.preparationData;
  if (!ctx.fields.length) {
    return <Alert tone="info">Keine Preparation-Felder in der Konfiguration gefunden!</Alert>;
  }
  return (
    <div className="space-y-4">
      {/* Keyed by the texts, not the request's time: an unrelated change (status, assignee)
          re-renders without throwing away what the admin is typing. */}
      <save.Form
        method="post"
        action={action}
        className="space-y-3"
        key={JSON.stringify(request.preparationData)}
      >
        <input type="hidden" name="intent" value="preparation" />
        <input type="hidden" name="id" value={request.id} />
        <input type="hidden" name="updatedAt" value={conflict?.updatedAt ?? request.updatedAt} />
        {conflict ? <Alert tone="warning">{conflict.error}</Alert> : null}
        {ctx.fields.map((field) => (
          <div key={field.id}>
            <label htmlFor={`${uid}-${field.name}`} className="mb-1 block text-sm font-medium">
              {field.label}
            </label>
            <textarea
              id={`${uid}-${field.name}`}
              name={`prep.${field.name}`}
              rows={3}
              placeholder={field.placeholder}
              defaultValue={fieldValue(values, field.name)}
              className={inputClass}
            />
          </div>
        ))}
        <Button type="submit" disabled={save.state !== "idle"}>
          {save.state !== "idle" ? "Speichert …" : "Vorbereitung speichern"}
        </Button>
      </save.Form>
      <auto.Form method="post" action={action} className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="auto-prepare" />
        <input type="hidden" name="id" value={request.id} />
        <Button
          type="submit"
          variant="secondary"
          disabled={!ctx.aiConfigured || auto.state !== "idle"}
          // Visibly unavailable (the secondary button has no disabled look of its own).
          className="disabled:border-dashed disabled:bg-slate-100 disabled:text-slate-500 disabled:hover:bg-slate-100 dark:disabled:bg-slate-900 dark:disabled:text-slate-400"
          aria-describedby={ctx.aiConfigured ? undefined : `${uid}-no-ai`}
        >
          {auto.state !== "idle" ? "KI bereitet vor …" : "Automatisch vorbereiten"}
        </Button>
        {!ctx.aiConfigured ? (
          // Without a key the button cannot work: say so and where the setup is described.
          <span
            id={`${uid}-no-ai`}
            data-testid="ai-not-configured"
            className="text-sm text-slate-700 dark:text-slate-300"
          >
            KI ist nicht eingerichtet – siehe{" "}
            <Link
              to="/admin"
              className="font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300"
            >
              Einrichtung
            </Link>
          </span>
        ) : auto.state !== "idle" ? (
          <span role="status" className="text-sm text-slate-500 dark:text-slate-400">
            Die KI füllt die leeren Felder – das kann bis zu einigen Minuten dauern.
          </span>
        ) : (
          <span className="text-xs text-slate-500 dark:text-slate-400">
            Füllt nur leere Felder; Ihr Text bleibt erhalten.
          </span>
        )}
      </auto.Form>
    </div>
  );
}
