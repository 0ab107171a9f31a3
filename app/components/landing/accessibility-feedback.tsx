import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
} from "@conform-to/react";
import { useEffect, useRef } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { useConformForm } from "~/components/ui/form";
import { Honeypot } from "~/components/ui/honeypot";
import { reveal } from "~/components/ui/reveal";
import { useHydrated } from "~/components/ui/use-hydrated";
import { ACCESSIBILITY_PATH, FEEDBACK_MESSAGES, FeedbackSchema } from "~/lib/accessibility";
import { ALTCHA_FIELD } from "~/lib/altcha";
import { useAltcha } from "./use-altcha";

export const FEEDBACK_ANCHOR = "rueckmeldung";

/** The proof of work's status lines, in this form's words. */
const STATUS = {
  verifying: "Wir prüfen kurz, dass hier ein Mensch schreibt …",
  waiting: "Einen Moment noch: Die Prüfung läuft, danach wird deine Rückmeldung gesendet …",
  verified: "Prüfung abgeschlossen.",
  failed:
    "Die automatische Prüfung hat nicht geklappt. Du kannst deine Rückmeldung trotzdem senden – wir sehen sie uns dann von Hand an.",
};

const label = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";
const hint = "mt-1 text-sm text-slate-600 dark:text-slate-400";

/**
 * The feedback form of the accessibility statement (ADR 340): a real form (works without JS; the
 * answer is the page again, with the thanks or the messages at their fields), the honeypot, and
 * with JS the contact form's invisible proof of work before it is sent. Nothing is mailed to the
 * address typed here.
 */
export function AccessibilityFeedback({
  lastResult,
  sent,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  /** The thanks after a stored entry (`?gesendet=1`). */
  sent: boolean;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const altcha = useAltcha(STATUS);
  const [form, fields] = useConformForm(FeedbackSchema, lastResult, { id: "feedback" });
  const sending =
    navigation.state === "submitting" && navigation.formAction?.startsWith(ACCESSIBILITY_PATH);
  const thanks = useRef<HTMLDivElement>(null);
  const problems = useRef<HTMLDivElement>(null);
  // The result takes the focus and the viewport: the thanks, or the form's own error.
  useEffect(() => {
    if (sent) reveal(thanks.current, { block: "center" });
  }, [sent]);
  const formError = form.errors?.[0];
  useEffect(() => {
    if (formError) reveal(problems.current, { block: "center" });
  }, [formError]);
  // Without JS the server's answer focuses the first field it refused.
  const firstInvalid = ["message", "location", "name", "email"].find(
    (name) => (lastResult?.error?.[name]?.length ?? 0) > 0,
  );
  // No fragment: the browser skips `autofocus` on a page whose address has one, and the refused
  // field must take the focus (the thanks' redirect carries the fragment instead).
  const action = ACCESSIBILITY_PATH;

  return (
    <section
      id={FEEDBACK_ANCHOR}
      aria-labelledby={`${FEEDBACK_ANCHOR}-titel`}
      className="scroll-mt-24 space-y-4 rounded-2xl border border-slate-200 bg-slate-50 p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`${FEEDBACK_ANCHOR}-titel`} className="text-xl font-semibold">
        Barriere melden oder Rückmeldung geben
      </h2>
      <p className="text-slate-700 dark:text-slate-300">
        Ist dir etwas aufgefallen, das du nicht oder nur schwer nutzen konntest? Schreib es uns.
        Eine E-Mail-Adresse brauchen wir nur, wenn wir dir antworten sollen; eine Bestätigung per
        E-Mail schicken wir nicht.
      </p>
      {sent ? (
        <div ref={thanks} tabIndex={-1} className="outline-none" data-testid="feedback-sent">
          <Alert tone="success">{FEEDBACK_MESSAGES.sent}</Alert>
        </div>
      ) : null}
      {formError ? (
        <div ref={problems} tabIndex={-1} className="outline-none">
          <Alert>{formError}</Alert>
        </div>
      ) : null}
      <Form
        method="post"
        action={action}
        {...getFormProps(form)}
        className="space-y-4"
        onFocusCapture={() => altcha.start()}
        onSubmit={async (event) => {
          form.onSubmit(event);
          if (event.defaultPrevented || !hydrated) return;
          // With JS: the proof of work first (a failed one sends without: held for a human).
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const payload = await altcha.solution();
          if (payload) data.set(ALTCHA_FIELD, payload);
          await submit(data, { method: "post", action });
          altcha.used();
        }}
      >
        <Honeypot />
        <div>
          <label htmlFor={fields.message.id} className={label}>
            Was ist dir aufgefallen?{" "}
            <span aria-hidden="true" className="text-red-700 dark:text-red-300">
              *
            </span>
          </label>
          <textarea
            {...getTextareaProps(fields.message, { ariaDescribedBy: `${fields.message.id}-hint` })}
            key={fields.message.key}
            rows={6}
            required
            className={inputClass}
            autoFocus={firstInvalid === "message"}
          />
          <p id={`${fields.message.id}-hint`} className={hint}>
            Zum Beispiel: welcher Knopf, welches Feld oder welcher Text, mit welchem Hilfsmittel.
            Mindestens 10 Zeichen.
          </p>
          <FieldErrors id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {(
            [
              [fields.location, "Seite oder Stelle (optional)", "text", "off"],
              [fields.name, "Dein Name (optional)", "text", "name"],
              [fields.email, "Deine E-Mail-Adresse für eine Antwort (optional)", "email", "email"],
            ] as const
          ).map(([meta, text, type, autoComplete]) => (
            <div key={meta.name} className={meta.name === "location" ? "sm:col-span-2" : ""}>
              <label htmlFor={meta.id} className={label}>
                {text}
              </label>
              <input
                {...getInputProps(meta, { type })}
                key={meta.key}
                autoComplete={autoComplete}
                className={inputClass}
                autoFocus={firstInvalid === meta.name}
              />
              <FieldErrors id={meta.errorId} errors={meta.errors} />
            </div>
          ))}
        </div>
        {/* The invisible ALTCHA widget goes here on the first interaction (its hidden field). */}
        <div ref={altcha.containerRef} hidden />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={sending || altcha.waiting}>
            {sending || altcha.waiting ? "Wird gesendet …" : "Rückmeldung senden"}
          </Button>
          <p aria-live="polite" className="text-sm text-slate-600 dark:text-slate-400">
            {altcha.statusText}
          </p>
        </div>
      </Form>
    </section>
  );
}
