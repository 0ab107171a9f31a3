import { useId, useRef, useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { FieldErrors, inputClass } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { HiddenFields } from "~/components/ui/post-button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { backPath } from "~/lib/return-path";
import {
  isStepUpStep,
  STEP_UP_MESSAGES as M,
  STEP_UP_FIELDS,
  type StepUpStepData,
} from "~/lib/step-up";

/**
 * The step-up the server asks for before power over another admin (ADR 315): the admin's password
 * (or a current code), posted with the rest of the form it interrupted. With JavaScript a dialog,
 * without it a section at the top of the page; either way focus lands in the password field and
 * a wrong proof is said at its field. Renders nothing unless the action answered with the step.
 */
export function StepUpStep({ data }: { data: unknown }) {
  const hydrated = useHydrated();
  const [closed, setClosed] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  if (!isStepUpStep(data)) return null;
  const step = data.stepUp;
  const intro = M.intro(step.action, step.code);
  if (hydrated) {
    return (
      <Modal
        open={closed !== step.id}
        onClose={() => setClosed(step.id)}
        title={M.title}
        description={intro}
        initialFocusRef={passwordRef}
        returnFocus={() => submitterOf(step.fields)}
        size="sm"
      >
        <StepUpForm
          key={step.id}
          step={step}
          passwordRef={passwordRef}
          // A wrong proof answers with a new step: its new field takes the focus again.
          autoFocus
          cancel={
            <button
              type="button"
              className={buttonClass("secondary")}
              onClick={() => setClosed(step.id)}
            >
              Abbrechen
            </button>
          }
        />
      </Modal>
    );
  }
  return <InlineStep step={step} intro={intro} />;
}

/**
 * The button that posted the interrupted form (found by its intent and id), so a cancelled dialog
 * gives the focus back to it: the submission itself may have left the focus nowhere.
 */
function submitterOf(fields: Record<string, string>): HTMLElement | null {
  const matches = (form: HTMLFormElement, name: string) =>
    fields[name] === undefined ||
    [...form.querySelectorAll<HTMLInputElement>(`input[type="hidden"][name="${name}"]`)].some(
      (input) => input.value === fields[name],
    );
  const form = [...document.querySelectorAll("form")].find(
    (f) => !f.hasAttribute("data-step-up") && matches(f, "intent") && matches(f, "id"),
  );
  return form?.querySelector<HTMLElement>('button[type="submit"], button:not([type])') ?? null;
}

function InlineStep({ step, intro }: { step: StepUpStepData["stepUp"]; intro: string }) {
  const titleId = useId();
  const location = useLocation();
  return (
    <section
      aria-labelledby={titleId}
      data-step-up={step.id}
      className="my-4 rounded-xl border border-indigo-300 bg-indigo-50 p-5 text-indigo-950 shadow-sm dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-50"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {M.title}
      </h2>
      <p className="mt-2 text-sm">{intro}</p>
      <StepUpForm
        key={step.id}
        step={step}
        autoFocus
        cancel={
          <Link
            to={backPath(location.pathname, location.search)}
            className={buttonClass("secondary")}
          >
            Abbrechen
          </Link>
        }
      />
    </section>
  );
}

function StepUpForm({
  step,
  cancel,
  passwordRef,
  autoFocus,
}: {
  step: StepUpStepData["stepUp"];
  cancel: React.ReactNode;
  passwordRef?: React.RefObject<HTMLInputElement | null>;
  autoFocus?: boolean;
}) {
  const id = useId();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const passwordError = step.field === "password" ? step.error : undefined;
  const codeError = step.field === "code" ? step.error : undefined;
  const formError = step.error && !step.field ? step.error : undefined;
  return (
    <Form method="post" className="mt-4 space-y-3" data-step-up={step.id}>
      <HiddenFields fields={step.fields} />
      {formError ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {formError}
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-password`} className="mb-1 block text-sm font-medium">
          Ihr Passwort
        </label>
        <input
          ref={passwordRef}
          id={`${id}-password`}
          name={STEP_UP_FIELDS.password}
          type="password"
          autoComplete="current-password"
          required={!step.code}
          // The focus of the no-JS step (the dialog focuses it itself).
          autoFocus={autoFocus}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? `${id}-password-error` : undefined}
          className={inputClass}
        />
        <FieldErrors id={`${id}-password-error`} errors={passwordError ? [passwordError] : null} />
      </div>
      {step.code ? (
        <div>
          <label htmlFor={`${id}-code`} className="mb-1 block text-sm font-medium">
            Oder: Code aus der Authenticator-App
          </label>
          <input
            id={`${id}-code`}
            name={STEP_UP_FIELDS.code}
            autoComplete="one-time-code"
            inputMode="numeric"
            aria-invalid={codeError ? true : undefined}
            aria-describedby={codeError ? `${id}-code-error` : undefined}
            className={inputClass}
          />
          <FieldErrors id={`${id}-code-error`} errors={codeError ? [codeError] : null} />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-2 pt-1">
        <button type="submit" className={buttonClass("primary")} disabled={busy}>
          {M.confirm}
        </button>
        {cancel}
      </div>
    </Form>
  );
}
