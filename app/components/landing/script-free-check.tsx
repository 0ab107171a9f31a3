import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import {
  ANSWER_MAX_LENGTH,
  ANSWER_PARAM,
  CHALLENGE_FIELDS,
  CHALLENGE_INTENT,
  CHALLENGE_TEXT,
  type ScriptFreeCheckView,
} from "~/lib/script-free-challenge";

/** The question's box (and the outcome's line): `#pruefung`. */
const CHECK_ANCHOR = "pruefung";

const note = "mt-3 scroll-mt-24 text-sm font-medium text-green-900 dark:text-green-100";

/**
 * The script-free challenge on the thank-you page (ADR 326): one arithmetic question in words, a
 * plain form (no JavaScript needed; with JavaScript it still posts natively), its answer field
 * focused and labelled by the question, so a screen reader reads the question first.
 */
export function ScriptFreeCheck({
  check,
  action,
  sent,
}: {
  check: ScriptFreeCheckView;
  /** The page that asked (the landing page or /embed), which checks the answer. */
  action: string;
  /** The page's `gesendet` value, carried back to it. */
  sent: string;
}) {
  if (!("token" in check)) {
    return (
      <p id={CHECK_ANCHOR} className={note} data-testid="script-free-outcome">
        {check.state === "arrived" ? CHALLENGE_TEXT.arrived : CHALLENGE_TEXT.byHand}
      </p>
    );
  }
  return (
    <div
      id={CHECK_ANCHOR}
      className="mt-4 scroll-mt-24 rounded-lg border border-amber-300 bg-white p-4 dark:border-amber-700 dark:bg-slate-900"
      data-testid="script-free-check"
    >
      <h4 className="font-semibold text-slate-900 dark:text-white">{CHALLENGE_TEXT.heading}</h4>
      {check.state === "wrong" ? (
        <p
          id="pruefung-falsch"
          role="alert"
          className="mt-1 text-sm font-medium text-red-700 dark:text-red-300"
        >
          {CHALLENGE_TEXT.wrong(check.attemptsLeft)}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{CHALLENGE_TEXT.intro}</p>
      <form method="post" action={`${action}?${ANSWER_PARAM}`} className="relative mt-3 space-y-2">
        <input type="hidden" name={CHALLENGE_FIELDS.intent} value={CHALLENGE_INTENT} />
        <input type="hidden" name={CHALLENGE_FIELDS.token} value={check.token} />
        <input type="hidden" name="gesendet" value={sent} />
        <Honeypot id="check-website" />
        <label
          htmlFor="pruefung-antwort"
          className="block font-medium text-slate-900 dark:text-white"
        >
          {check.question}
        </label>
        <p id="pruefung-hinweis" className="text-xs text-slate-600 dark:text-slate-400">
          {CHALLENGE_TEXT.hint}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <input
            id="pruefung-antwort"
            name={CHALLENGE_FIELDS.answer}
            type="text"
            required
            maxLength={ANSWER_MAX_LENGTH}
            autoComplete="off"
            // The page opens at a fragment naming no element, so this takes the focus: its label,
            // the question, is read first.
            autoFocus
            aria-describedby={
              check.state === "wrong" ? "pruefung-falsch pruefung-hinweis" : "pruefung-hinweis"
            }
            // Focused on arrival: centred with room above, so the thanks above it stays in view.
            className={`${inputClass} scroll-mt-80 sm:max-w-48`}
          />
          <button type="submit" className={buttonClass("primary")}>
            {CHALLENGE_TEXT.submit}
          </button>
        </div>
      </form>
      <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">{CHALLENGE_TEXT.later}</p>
    </div>
  );
}
