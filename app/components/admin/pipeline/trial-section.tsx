import { useEffect, useId, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { useActionUrl } from "~/components/admin/requests/detail-context";
import { Button } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { formatDateTime } from "~/lib/format";
import { keptInTime } from "~/lib/promises";
import type { AdminRequestJson } from "~/lib/request-json";
import { MESSAGE_BODY_MAX } from "~/lib/request-message";
import { TRIAL_URL_MAX } from "~/lib/trial";

/** The page's answer to a refused delivery (requests.server.ts): the draft comes back. */
type TrialAnswer = {
  intent: "trial";
  id: number;
  error?: string;
  fieldErrors?: Record<string, string[] | undefined>;
  values?: { url?: string; message?: string };
};

const isAnswer = (value: unknown, id: number): value is TrialAnswer =>
  Boolean(value) &&
  typeof value === "object" &&
  (value as TrialAnswer).intent === "trial" &&
  (value as TrialAnswer).id === id;

export const TRIAL_SENT = "Testversion an den Kunden geschickt.";

/**
 * "Testversion liefern" in the full-screen view (ADR 348): the link (https) and an optional text
 * go to the lead as a message of the thread; the trial promise is recorded and the request moves
 * to "Testversion geliefert". A real form: without JS the page answers with a toast, or with the
 * draft and the reason (no SMTP, archived, held) at its field.
 */
export function TrialSection({
  request,
  mailConfigured = false,
}: {
  request: AdminRequestJson;
  mailConfigured?: boolean;
}) {
  const fetcher = useFetcher();
  const actionData = useActionData();
  const action = useActionUrl(undefined, "fullscreen-trial");
  const uid = useId();
  const sent = useDeliveredNote(fetcher.state, request.messages.length);
  // After a delivery the last refusal (the fetcher keeps its data) is history.
  const answer = sent.shown
    ? undefined
    : ([fetcher.data, actionData].find((a) => isAnswer(a, request.id)) as TrialAnswer | undefined);
  const errors = answer?.fieldErrors ?? {};
  const busy = fetcher.state !== "idle";
  const trial = request.promises.trial;
  const delivered = request.trialUrl && trial.doneAt;
  const blocked = request.archived
    ? "Die Anfrage ist archiviert – stellen Sie sie zuerst wieder her, bevor Sie eine Testversion liefern."
    : request.quarantined
      ? "Die Anfrage wartet auf die Spamprüfung – nach der Freigabe können Sie die Testversion liefern."
      : !mailConfigured
        ? "Ohne Mailserver (SMTP_URL) kann keine Testversion an den Kunden gehen – sie bliebe im Postausgang liegen. Bitte richten Sie den Mailversand ein."
        : null;
  return (
    <div className="space-y-4 text-sm" data-trial-section="">
      {delivered ? (
        <p data-trial-delivered="">
          Geliefert am {formatDateTime(trial.doneAt as string)}
          {trial.dueAt
            ? keptInTime(Date.parse(trial.doneAt as string), Date.parse(trial.dueAt))
              ? " – rechtzeitig"
              : " – nach der versprochenen Zeit"
            : ""}
          :{" "}
          <a
            href={request.trialUrl as string}
            target="_blank"
            rel="noreferrer noopener"
            className="break-all font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            {request.trialUrl}
          </a>
        </p>
      ) : null}
      {sent.shown ? (
        <p
          ref={sent.ref}
          tabIndex={-1}
          data-trial-sent=""
          className="rounded-lg bg-green-50 p-2 text-green-900 focus:outline-none dark:bg-green-950 dark:text-green-200"
        >
          {TRIAL_SENT}
        </p>
      ) : null}
      {blocked ? (
        <Alert tone="info">{blocked}</Alert>
      ) : (
        <fetcher.Form
          method="post"
          action={action}
          className="space-y-3"
          // A delivery (a new message in the thread) empties the form — also of the refusal
          // before it, which the fetcher still holds; a refused one keeps it.
          key={`${request.messages.length}-${sent.shown}`}
          aria-labelledby={`${uid}-title`}
        >
          <h4 id={`${uid}-title`} className="font-semibold">
            {delivered ? "Neue Fassung liefern" : `Testversion an ${request.name} liefern`}
          </h4>
          <input type="hidden" name="intent" value="trial" />
          <input type="hidden" name="id" value={request.id} />
          {/* A refusal of the whole delivery (no SMTP, a limit); a field's own stays at it. */}
          {answer?.error && !Object.values(errors).some((e) => e?.length) ? (
            <Alert>{answer.error}</Alert>
          ) : null}
          <div>
            <label htmlFor={`${uid}-url`} className="mb-1 block font-medium">
              Link zur Testversion
            </label>
            <input
              id={`${uid}-url`}
              name="url"
              type="text"
              inputMode="url"
              required
              maxLength={TRIAL_URL_MAX + 1}
              placeholder="https://"
              autoComplete="off"
              defaultValue={answer?.values?.url ?? ""}
              aria-invalid={errors.url?.length ? true : undefined}
              aria-describedby={errors.url?.length ? `${uid}-url-error` : undefined}
              className={inputClass}
            />
            <FieldErrors id={`${uid}-url-error`} errors={errors.url} />
          </div>
          <div>
            <label htmlFor={`${uid}-message`} className="mb-1 block font-medium">
              Nachricht (optional)
            </label>
            <textarea
              id={`${uid}-message`}
              name="message"
              rows={4}
              maxLength={MESSAGE_BODY_MAX}
              defaultValue={answer?.values?.message ?? ""}
              aria-invalid={errors.message?.length ? true : undefined}
              aria-describedby={`${uid}-message-hint${errors.message?.length ? ` ${uid}-message-error` : ""}`}
              className={inputClass}
            />
            <p
              id={`${uid}-message-hint`}
              className="mt-1 text-xs text-slate-600 dark:text-slate-400"
            >
              Geht an {request.email} mit Begrüßung, Link und – solange keine Demo gebucht ist – dem
              Link zur Terminbuchung; erscheint im Verlauf unter „Nachricht an den Kunden“.
            </p>
            <FieldErrors id={`${uid}-message-error`} errors={errors.message} />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? "Wird geliefert …" : "Testversion liefern"}
          </Button>
        </fetcher.Form>
      )}
    </div>
  );
}

/**
 * With JavaScript: after a post that added a message to the thread (the delivery; a refusal adds
 * none), a line near the form says so and takes the focus — the emptied form would drop it.
 */
function useDeliveredNote(state: string, messages: number) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [shown, setShown] = useState(false);
  const before = useRef<number | null>(null);
  useEffect(() => {
    if (state !== "idle") {
      before.current ??= messages;
      setShown(false);
    } else if (before.current !== null) {
      setShown(messages > before.current);
      before.current = null;
    }
  }, [state, messages]);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return { ref, shown };
}
