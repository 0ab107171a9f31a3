import { useEffect, useId } from "react";
import { useActionData, useFetcher, useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { formatDateTime } from "~/lib/format";
import type { AdminRequestJson } from "~/lib/request-json";
import {
  MESSAGE_BODY_MAX,
  MESSAGE_STATUS_LABELS,
  MESSAGE_SUBJECT_MAX,
} from "~/lib/request-message";
import { useActionUrl } from "./detail-context";
import { useDoneNote, useFetcherAnswer } from "./work-answer";

/** The page's answer to a refused message (requests.server.ts): the draft comes back. */
type MessageAnswer = {
  intent: "message";
  id: number;
  error?: string;
  fieldErrors?: Record<string, string[] | undefined>;
  values?: { subject?: string; body?: string };
};

const isAnswer = (value: unknown, id: number): value is MessageAnswer =>
  Boolean(value) &&
  typeof value === "object" &&
  (value as MessageAnswer).intent === "message" &&
  (value as MessageAnswer).id === id;

const STATUS_TONE = {
  queued: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  sent: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  received: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
} as const;

/**
 * "Nachricht an den Kunden" in the full-screen view (ADR 273): the thread with the lead
 * and a form (subject, text) that sends a mail through the outbox with Reply-To the admin.
 * A real form: without JS the page posts and answers with a toast or the draft and its errors.
 */
export function MessagesSection({
  request,
  mailConfigured = false,
  repliesConfigured = false,
}: {
  request: AdminRequestJson;
  mailConfigured?: boolean;
  repliesConfigured?: boolean;
}) {
  const fetcher = useFetcher();
  const actionData = useActionData();
  // Without JS the answer lands on the section's heading (the thread and the form below it).
  const action = useActionUrl(undefined, "fullscreen-messages");
  const uid = useId();
  // The answer to the last post only: a refusal before a sent message does not come back.
  const post = useFetcherAnswer(fetcher);
  const answer = [post.data, actionData].find((a) => isAnswer(a, request.id)) as
    | MessageAnswer
    | undefined;
  const busy = fetcher.state !== "idle";
  const errors = answer?.fieldErrors ?? {};
  const sent = useDoneNote(fetcher.state, post.data);
  useRefreshWhileQueued(request.messages.some((m) => m.status === "queued"));
  return (
    <div className="space-y-4 text-sm">
      {request.messages.length ? (
        <ol className="space-y-3" aria-label="Nachrichten an den Kunden">
          {request.messages.map((m) => (
            <li
              key={m.id}
              className={
                m.direction === "in"
                  ? "mr-0 ml-4 rounded-lg border border-indigo-200 border-l-4 border-l-indigo-500 bg-indigo-50 p-3 sm:ml-8 dark:border-indigo-900 dark:border-l-indigo-400 dark:bg-indigo-950/40"
                  : "rounded-lg border border-slate-200 p-3 dark:border-slate-700"
              }
              data-message-id={m.id}
              data-direction={m.direction}
            >
              {m.direction === "in" ? (
                <p className="mb-1 text-xs font-semibold tracking-wide text-indigo-800 uppercase dark:text-indigo-200">
                  Antwort vom Kunden
                </p>
              ) : null}
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold">{m.subject}</p>
                <span className={`rounded-full px-2 py-0.5 text-xs ${STATUS_TONE[m.status]}`}>
                  {MESSAGE_STATUS_LABELS[m.status]}
                </span>
              </div>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {formatDateTime(m.sentAt)}
                {m.direction === "in" ? ` · von ${request.name}` : ` · von ${m.admin}`}
              </p>
              <p className="mt-2 whitespace-pre-wrap">{m.body}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-slate-600 dark:text-slate-400">Noch keine Nachrichten an den Kunden.</p>
      )}
      {request.quarantined ? (
        <Alert tone="info">
          Die Anfrage wartet auf die Spamprüfung – nach der Freigabe können Sie dem Kunden
          schreiben.
        </Alert>
      ) : !mailConfigured ? (
        <Alert tone="info">
          Ohne Mailserver (SMTP_URL) kann keine Nachricht an den Kunden gehen. Bitte richten Sie den
          Mailversand ein.
        </Alert>
      ) : (
        <fetcher.Form
          method="post"
          action={action}
          onSubmit={post.onSubmit}
          className="space-y-3"
          // A new message in the thread empties the form; a refused one keeps the draft.
          key={request.messages.length}
          aria-labelledby={`${uid}-title`}
        >
          <h4 id={`${uid}-title`} className="font-semibold">
            Neue Nachricht an {request.name}
          </h4>
          {sent.shown ? (
            // The form is emptied (re-keyed) after a send: this line near it takes the focus.
            <p
              ref={sent.ref}
              tabIndex={-1}
              data-message-sent=""
              className="rounded-lg bg-green-50 p-2 text-green-900 focus:outline-none dark:bg-green-950 dark:text-green-200"
            >
              {MESSAGE_SENT}
            </p>
          ) : null}
          <input type="hidden" name="intent" value="message" />
          <input type="hidden" name="id" value={request.id} />
          {answer?.error ? <Alert>{answer.error}</Alert> : null}
          <div>
            <label htmlFor={`${uid}-subject`} className="mb-1 block font-medium">
              Betreff
            </label>
            <input
              id={`${uid}-subject`}
              name="subject"
              required
              maxLength={MESSAGE_SUBJECT_MAX}
              defaultValue={answer?.values?.subject ?? ""}
              aria-invalid={errors.subject?.length ? true : undefined}
              aria-describedby={errors.subject?.length ? `${uid}-subject-error` : undefined}
              className={inputClass}
            />
            <FieldErrors id={`${uid}-subject-error`} errors={errors.subject} />
          </div>
          <div>
            <label htmlFor={`${uid}-body`} className="mb-1 block font-medium">
              Nachricht
            </label>
            <textarea
              id={`${uid}-body`}
              name="body"
              required
              rows={6}
              maxLength={MESSAGE_BODY_MAX}
              defaultValue={answer?.values?.body ?? ""}
              aria-invalid={errors.body?.length ? true : undefined}
              aria-describedby={`${uid}-body-hint${errors.body?.length ? ` ${uid}-body-error` : ""}`}
              className={inputClass}
            />
            <p id={`${uid}-body-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              Geht an {request.email};{" "}
              {repliesConfigured
                ? "Antworten erscheinen hier im Verlauf, Sie erhalten eine Kopie."
                : "Antworten landen in Ihrem Postfach."}{" "}
              Unterschrieben mit dem Namen des Portals.
            </p>
            <FieldErrors id={`${uid}-body-error`} errors={errors.body} />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? "Wird gesendet …" : "Nachricht senden"}
          </Button>
        </fetcher.Form>
      )}
    </div>
  );
}

const MESSAGE_SENT = "Nachricht an den Kunden gesendet.";
/** While a message is queued, the thread is reloaded this often until it is sent or failed. */
const QUEUED_REFRESH_MS = 3000;

/** A queued message says "Wird gesendet" until the outbox sends it: reload while any is queued. */
function useRefreshWhileQueued(queued: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!queued || state !== "idle") return;
    const timer = setTimeout(() => void revalidate(), QUEUED_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [queued, state, revalidate]);
}
