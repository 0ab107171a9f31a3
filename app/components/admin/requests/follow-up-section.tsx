import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { berlinToday } from "~/lib/booking-calendar";
import {
  dueLabel,
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_PRESETS,
  FOLLOW_UP_TEXT_MAX,
  type FollowUpJson,
} from "~/lib/follow-ups";
import type { HeadingLevel } from "./detail-context";
import { useDoneNote, useFetcherAnswer, useWorkAnswer } from "./work-answer";

/** "Antwort erhalten" / "Termin gebucht": the lead answered since the follow-up was set. */
export function AnswerBadge({ followUp }: { followUp: Pick<FollowUpJson, "answer"> }) {
  if (!followUp.answer) return null;
  return (
    <span
      className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-900 dark:bg-green-950 dark:text-green-200"
      data-follow-up-answer={followUp.answer}
    >
      {FOLLOW_UP_ANSWER_LABELS[followUp.answer]}
    </span>
  );
}

/** "Erledigt" in one click (a real form: works without JS). */
export function FollowUpDoneButton({
  requestId,
  action,
  label = "Erledigt",
  name,
  fetcherKey,
}: {
  requestId: number;
  action: string;
  label?: string;
  /** Who or what it is for, in the button's accessible name ("Erledigt: Anna Müller"). */
  name?: string;
  /** Shared by a list's buttons, so the list can follow the last one (`useFetcher({ key })`). */
  fetcherKey?: string;
}) {
  const fetcher = useFetcher({ key: fetcherKey });
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value="follow-up-done" />
      <input type="hidden" name="id" value={requestId} />
      <button
        type="submit"
        className={buttonClass("secondary", "sm")}
        disabled={fetcher.state !== "idle"}
        aria-label={name ? `${label}: ${name}` : undefined}
      >
        {fetcher.state !== "idle" ? "Wird gespeichert …" : label}
      </button>
    </fetcher.Form>
  );
}

/**
 * The request's follow-up ("Wiedervorlage", ADR 351): the open one with its day, text, owner and
 * whether the lead answered meanwhile, "Erledigt", and one form to set or move it — a click on
 * "Morgen", "In 3 Tagen" or "Nächste Woche", or a day — with and without JavaScript.
 */
export function FollowUpSection({
  requestId,
  followUp,
  action,
  level,
  today = berlinToday(),
}: {
  requestId: number;
  followUp: FollowUpJson | null;
  action: string;
  level: HeadingLevel;
  today?: string;
}) {
  const fetcher = useFetcher();
  const uid = useId();
  const post = useFetcherAnswer(fetcher);
  const answer = useWorkAnswer(post.data, "follow-up-set", requestId);
  const done = useDoneNote(fetcher.state, post.data);
  const errors = answer?.fieldErrors ?? {};
  // A refused day or text: that field takes the focus (with JS; without it, autoFocus).
  const dueRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!answer) return;
    (answer.fieldErrors.text?.length ? textRef : dueRef).current?.focus();
  }, [answer]);
  const Heading = `h${level}` as "h2" | "h4";
  const busy = fetcher.state !== "idle";
  return (
    <div className="space-y-3 text-sm" data-follow-up="">
      <Heading id={`${uid}-title`} className="font-semibold">
        Wiedervorlage
      </Heading>
      {followUp ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
          data-follow-up-open=""
        >
          <p className="min-w-0 flex-1">
            <span className="font-medium">Fällig {dueLabel(followUp.due, today)}</span>
            {followUp.text ? <span> · {followUp.text}</span> : null}
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              Aufgabe von {followUp.admin}
            </span>
          </p>
          <AnswerBadge followUp={followUp} />
          <FollowUpDoneButton requestId={requestId} action={action} />
        </div>
      ) : (
        <p className="text-slate-600 dark:text-slate-400">Keine Wiedervorlage gesetzt.</p>
      )}
      <fetcher.Form
        method="post"
        action={action}
        onSubmit={post.onSubmit}
        className="space-y-3"
        aria-labelledby={`${uid}-title`}
        key={followUp ? `${followUp.id}-${followUp.due}` : "none"}
      >
        {/* Enter in a field sets the typed day (the first submit button), not a preset. */}
        <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true">
          Setzen
        </button>
        <input type="hidden" name="intent" value="follow-up-set" />
        <input type="hidden" name="id" value={requestId} />
        {done.shown ? (
          <p
            ref={done.ref}
            tabIndex={-1}
            data-follow-up-saved=""
            className="rounded-lg bg-green-50 p-2 text-green-900 focus:outline-none dark:bg-green-950 dark:text-green-200"
          >
            Wiedervorlage gespeichert.
          </p>
        ) : null}
        {answer && !errors.due && !errors.text ? <Alert>{answer.error}</Alert> : null}
        <div>
          <label htmlFor={`${uid}-text`} className="mb-1 block font-medium">
            Hinweis (optional)
          </label>
          <input
            ref={textRef}
            id={`${uid}-text`}
            name="text"
            autoFocus={Boolean(errors.text?.length)}
            maxLength={FOLLOW_UP_TEXT_MAX}
            defaultValue={answer?.values.text ?? followUp?.text ?? ""}
            placeholder="z. B. Angebot nachfassen"
            aria-invalid={errors.text?.length ? true : undefined}
            aria-describedby={errors.text?.length ? `${uid}-text-error` : undefined}
            className={inputClass}
          />
          <FieldErrors id={`${uid}-text-error`} errors={errors.text} />
        </div>
        <fieldset>
          <legend className="mb-1 font-medium">
            {followUp ? "Verschieben auf" : "Wiedervorlage in einem Klick"}
          </legend>
          <div className="flex flex-wrap gap-2">
            {Object.entries(FOLLOW_UP_PRESETS).map(([value, label]) => (
              <button
                key={value}
                type="submit"
                name="preset"
                value={value}
                className={buttonClass("secondary", "sm")}
                disabled={busy}
              >
                {label}
              </button>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={`${uid}-due`} className="mb-1 block font-medium">
              Oder am
            </label>
            <input
              ref={dueRef}
              id={`${uid}-due`}
              name="due"
              autoFocus={Boolean(errors.due?.length)}
              type="date"
              defaultValue={answer?.values.due ?? ""}
              aria-invalid={errors.due?.length ? true : undefined}
              aria-describedby={errors.due?.length ? `${uid}-due-error` : undefined}
              className={`${inputClass} w-auto`}
            />
          </div>
          <Button type="submit" size="sm" disabled={busy}>
            Setzen
          </Button>
        </div>
        <FieldErrors id={`${uid}-due-error`} errors={errors.due} />
      </fetcher.Form>
    </div>
  );
}
