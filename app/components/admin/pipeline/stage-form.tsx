import { useEffect, useId, useRef, useState } from "react";
import { Link, useActionData, useFetcher, useLocation } from "react-router";
import { useActionUrl } from "~/components/admin/requests/detail-context";
import { compactFormClass, compactSelectClass } from "~/components/admin/requests/status-form";
import { AutoSaveStatus } from "~/components/ui/auto-save-status";
import { Button } from "~/components/ui/button";
import { Alert, inputClass } from "~/components/ui/field";
import { useFocusAfterSave } from "~/components/ui/use-focus-after-save";
import { useHydrated } from "~/components/ui/use-hydrated";
import { PIPELINE_MESSAGES, resolveStage, type Stage } from "~/lib/pipeline";
import type { RequestStatus } from "~/lib/request-status";
import { ReasonSelect } from "./reason-select";

/** The stages and reasons a page passes down (the configuration's `pipeline`). */
export type PipelineView = { stages: Stage[]; lostReasons: string[] };

/** The page's answer to a move that needs a reason (requests.server.ts, intent "stage"). */
export type StageAnswer = {
  intent: "stage";
  id: number;
  stage: string;
  error?: string;
  needsReason?: boolean;
};

export const isStageAnswer = (value: unknown, id: number): value is StageAnswer =>
  Boolean(value) &&
  typeof value === "object" &&
  (value as StageAnswer).intent === "stage" &&
  (value as StageAnswer).id === id;

/**
 * The page's answer (without JS) that asks for the reason of request N's move, else null. The
 * post came back to `#request-N` (useActionUrl), and the reason step now carries that anchor on its
 * select: a browser skips `autofocus` on a page opened at a fragment, but scrolling to the fragment
 * focuses its target. So the row or card of N gives the anchor up while this answer is shown (ADR 359).
 */
export function useAskedReason(): StageAnswer | null {
  const actionData = useActionData();
  if (!actionData || typeof actionData !== "object" || !("id" in actionData)) return null;
  return isStageAnswer(actionData, Number(actionData.id)) && actionData.needsReason
    ? actionData
    : null;
}

/**
 * A request's stage as a select (list row, full-screen view, board card): with JS a change posts
 * at once — a stage that asks for a reason ("Verloren") first shows the reason step —; without JS
 * "Phase speichern" posts and the server asks for the reason when one is needed (ADR 345).
 */
export function StageForm({
  request,
  pipeline,
  label,
  pageAnswers = true,
  compact = false,
}: {
  request: { id: number; stage: string; status: RequestStatus };
  pipeline: PipelineView;
  /** The select's accessible name (default "Phase von Anfrage N"). */
  label?: string;
  /** Show the page's answer (without JS) here; false where the page shows it itself (board). */
  pageAnswers?: boolean;
  /** A list row (ADR 236): like StatusForm's `compact`. */
  compact?: boolean;
}) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const action = useActionUrl(request.id);
  const uid = useId();
  const actionData = useActionData();
  const asked = useAskedReason();
  const current = resolveStage(pipeline, request.stage, request.status);
  const [asking, setAsking] = useState<string | null>(null);
  const focus = useFocusAfterSave<HTMLSelectElement>(fetcher.state === "idle");
  const selectRef = focus.ref;
  const answer = [fetcher.data, pageAnswers ? actionData : null].find((a) =>
    isStageAnswer(a, request.id),
  ) as StageAnswer | undefined;
  const reasonFor = asking ?? (answer?.needsReason ? answer.stage : null);
  const pending = fetcher.state !== "idle";
  return (
    <div
      className={`flex flex-col gap-2 ${compact ? (reasonFor ? "basis-full" : compactFormClass) : ""}`}
      data-stage-form={request.id}
    >
      <fetcher.Form method="post" action={action} className="flex items-center gap-2">
        <input type="hidden" name="intent" value="stage" />
        <input type="hidden" name="id" value={request.id} />
        <label className="sr-only" htmlFor={`${uid}-stage`}>
          {label ?? `Phase von Anfrage ${request.id}`}
        </label>
        <select
          ref={selectRef}
          id={`${uid}-stage`}
          name="stage"
          defaultValue={current.id}
          key={`${request.id}-${current.id}`}
          className={`${inputClass} py-1 text-sm ${compact ? compactSelectClass : "w-auto"}`}
          // Not disabled while saving: a disabled select loses the keyboard's focus.
          aria-busy={pending}
          onChange={(event) => {
            if (!hydrated) return;
            const target = pipeline.stages.find((s) => s.id === event.currentTarget.value);
            if (target?.askReason) setAsking(target.id);
            else {
              setAsking(null);
              focus.remember();
              fetcher.submit(event.currentTarget.form);
            }
          }}
        >
          {pipeline.stages.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <AutoSaveStatus pending={pending} compact={compact}>
          Phase speichern
        </AutoSaveStatus>
      </fetcher.Form>
      {reasonFor ? (
        <ReasonStep
          id={request.id}
          stage={pipeline.stages.find((s) => s.id === reasonFor)}
          reasons={pipeline.lostReasons}
          error={asking ? undefined : answer?.error}
          anchored={!asking && answer !== undefined && answer === asked}
          submit={hydrated ? (form) => fetcher.submit(form) : undefined}
          onCancel={
            hydrated
              ? (moved) => {
                  setAsking(null);
                  // Moved: the focus goes back to the stage select (on screen, with the new stage).
                  if (moved) focus.take();
                  // Not moved: the select shows the stage the request is in again.
                  if (!moved && selectRef.current) {
                    selectRef.current.value = current.id;
                    selectRef.current.focus();
                  }
                }
              : undefined
          }
        />
      ) : null}
    </div>
  );
}

/**
 * "Grund für „Verloren“": the reasons of the configuration and the move. The select takes the
 * focus (it appears after a change of the stage, or as the page's answer without JS: then by the
 * page's fragment, see useAskedReason).
 */
export function ReasonStep({
  id,
  stage,
  reasons,
  error,
  submit,
  onCancel,
  anchored = false,
}: {
  id: number;
  stage: Stage | undefined;
  reasons: string[];
  error?: string;
  /** With JS: post through the caller's fetcher (the form is then replaced by the answer). */
  submit?: (form: HTMLFormElement) => void;
  /** With JS: close the step (`moved`: after its post); without JS "Abbrechen" is a link back. */
  onCancel?: (moved: boolean) => void;
  /**
   * The page's answer without JS (useAskedReason): the select is the anchor `request-N` the post
   * came back to, so the browser scrolls to it and focuses it.
   */
  anchored?: boolean;
}) {
  const uid = useId();
  const location = useLocation();
  const action = useActionUrl(id);
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => select.current?.focus(), []);
  if (!stage) return null;
  const selectId = anchored ? `request-${id}` : `${uid}-reason`;
  // The select is required, so a browser never posts this step without a reason: "no reason" comes
  // back only from the stage select (without JS). That is the question this step asks, shown as a
  // prompt; any other answer (a reason no longer configured) is an error.
  const prompt = error === PIPELINE_MESSAGES.reasonMissing(stage.name);
  return (
    <form
      method="post"
      action={action}
      className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-800/60"
      data-reason-step={id}
      onSubmit={(event) => {
        if (!submit) return;
        event.preventDefault();
        submit(event.currentTarget);
        onCancel?.(true);
      }}
    >
      <input type="hidden" name="intent" value="stage" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="stage" value={stage.id} />
      {error && !prompt ? <Alert>{error}</Alert> : null}
      {prompt ? (
        <p id={`${selectId}-prompt`} className="text-slate-700 dark:text-slate-300">
          {error}
        </p>
      ) : null}
      <label htmlFor={selectId} className="block font-medium">
        Grund für „{stage.name}“
      </label>
      <ReasonSelect
        ref={select}
        id={selectId}
        describedBy={prompt ? `${selectId}-prompt` : undefined}
        name="reason"
        reasons={reasons}
        autoFocus
        // Scrolled to as the anchor: its label (and the board's heading) stay in sight above it.
        className={anchored ? "scroll-mt-24" : ""}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm">
          Nach „{stage.name}“ verschieben
        </Button>
        {onCancel ? (
          <Button type="button" size="sm" variant="secondary" onClick={() => onCancel(false)}>
            Abbrechen
          </Button>
        ) : (
          <Link to={`${location.pathname}${location.search}`} className="btn btn-sm btn-secondary">
            Abbrechen
          </Link>
        )}
      </div>
    </form>
  );
}
