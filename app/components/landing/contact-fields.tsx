import type { Ref } from "react";
import { FieldErrors, inputClass } from "~/components/ui/field";
import { CheckIcon } from "~/components/ui/icons";
import {
  COMPANY_MIN_REACHED,
  ERROR_SUMMARY_TITLE,
  errorSummaryEntries,
} from "~/lib/contact-feedback";
import { CONTACT_FIELDS, type ContactField } from "~/lib/contact-fields";

/** The spec's minimum of the company description: the live counter 'n/20 Zeichen (mindestens)'. */
const COMPANY_MIN = CONTACT_FIELDS.companyDescription.min;

export const FORM_ID = "contact-form";
export const fieldId = (name: string) => `${FORM_ID}-${name}`;
export const errorId = (name: string) => `${FORM_ID}-${name}-error`;
/** The file input of the upload widget (the error summary links refused files to it). */
export const ATTACHMENTS_ID = "contact-attachments";
export const labelClass = "mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200";

/** A file input whose button looks like the form's buttons (attachments, the no-JS voice message). */
export const fileInputClass =
  "block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:font-semibold file:text-indigo-800 hover:file:bg-indigo-100 dark:text-slate-300 dark:file:bg-slate-800 dark:file:text-slate-100";

export type Constraint = { required?: boolean; minLength?: number; maxLength?: number };

function RequiredMark() {
  return (
    <span aria-hidden="true" className="text-red-600">
      *
    </span>
  );
}

/** One text input with its label (from lib/contact-fields.ts) and messages. */
export function TextInput({
  name,
  label = CONTACT_FIELDS[name].label,
  type = "text",
  autoComplete,
  defaultValue,
  constraint,
  errors,
}: {
  name: ContactField;
  label?: string;
  type?: string;
  autoComplete?: string;
  defaultValue: string;
  constraint?: Constraint;
  errors?: string[];
}) {
  return (
    <div>
      <label htmlFor={fieldId(name)} className={labelClass}>
        {label} {CONTACT_FIELDS[name].min > 0 ? <RequiredMark /> : null}
      </label>
      <input
        id={fieldId(name)}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        required={constraint?.required}
        maxLength={constraint?.maxLength}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId(name) : undefined}
      />
      <FieldErrors id={errorId(name)} errors={errors} />
    </div>
  );
}

/**
 * The company description with the spec's live counter ('n/20 Zeichen (mindestens)', red below
 * 20). Below the minimum the counter is the field's message; from 20 on a ✓ stands beside it.
 */
export function CompanyField({
  value,
  defaultValue,
  constraint,
  invalid,
  errors,
}: {
  value: string;
  defaultValue: string;
  constraint?: Constraint;
  /** The schema refused the field (shown by the counter or by `errors`). */
  invalid: boolean;
  /** Messages not already said by the counter. */
  errors?: string[];
}) {
  const name = "companyDescription";
  const counterId = `${fieldId(name)}-counter`;
  const reached = value.length >= COMPANY_MIN;
  return (
    <div>
      <label htmlFor={fieldId(name)} className={labelClass}>
        {CONTACT_FIELDS[name].label} <RequiredMark />
      </label>
      <textarea
        id={fieldId(name)}
        name={name}
        defaultValue={defaultValue}
        required={constraint?.required}
        minLength={constraint?.minLength}
        maxLength={constraint?.maxLength}
        rows={3}
        className={inputClass}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={`${counterId}${errors?.length ? ` ${errorId(name)}` : ""}`}
      />
      <p className="mt-1 flex items-center gap-1 text-xs">
        <span
          id={counterId}
          className={
            reached ? "text-slate-500 dark:text-slate-400" : "text-red-600 dark:text-red-400"
          }
          data-testid="company-counter"
        >
          {value.length}/{COMPANY_MIN} Zeichen (mindestens)
        </span>
        {reached ? (
          <span
            className="inline-flex items-center text-green-700 dark:text-green-400"
            data-testid="company-counter-ok"
          >
            <CheckIcon size={14} />
            <span className="sr-only">{COMPANY_MIN_REACHED}</span>
          </span>
        ) : null}
      </p>
      <FieldErrors id={errorId(name)} errors={errors} />
    </div>
  );
}

/** The optional project description. */
export function DescriptionField({
  defaultValue,
  constraint,
  errors,
}: {
  defaultValue: string;
  constraint?: Constraint;
  errors?: string[];
}) {
  const name = "description";
  return (
    <div>
      <label htmlFor={fieldId(name)} className={labelClass}>
        {CONTACT_FIELDS[name].label}
      </label>
      <textarea
        id={fieldId(name)}
        name={name}
        defaultValue={defaultValue}
        maxLength={constraint?.maxLength}
        rows={6}
        placeholder="Was soll die Software können? Wer nutzt sie?"
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId(name) : undefined}
      />
      <FieldErrors id={errorId(name)} errors={errors} />
    </div>
  );
}

/**
 * The list of problems after a submission: one link per invalid field (its message), a heading
 * that takes the focus. Without JS the page lands here by the form's `#contact` target. Refused
 * files are listed too, linked to the file field (on a phone it is screens further down).
 */
export function ErrorSummary({
  errors,
  uploadErrors,
  headingRef,
}: {
  errors: Record<string, string[] | undefined>;
  uploadErrors?: string[] | null;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const entries = [
    ...errorSummaryEntries(errors).map(({ field, message }) => ({
      key: field,
      href: `#${fieldId(field)}`,
      message,
    })),
    ...(uploadErrors ?? []).map((message) => ({
      key: `upload-${message}`,
      href: `#${ATTACHMENTS_ID}`,
      message,
    })),
  ];
  if (!entries.length) return null;
  return (
    <div
      role="alert"
      aria-labelledby="contact-error-summary-title"
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
      data-testid="contact-error-summary"
    >
      <h3
        id="contact-error-summary-title"
        ref={headingRef}
        tabIndex={-1}
        className="font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500"
      >
        {ERROR_SUMMARY_TITLE}
      </h3>
      <ul className="mt-1 list-inside list-disc space-y-0.5">
        {entries.map(({ key, href, message }) => (
          <li key={key}>
            <a href={href} className="underline underline-offset-2">
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
