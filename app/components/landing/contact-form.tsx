import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import type { Attribution } from "~/lib/attribution";
import { fieldMessages, submitBlockedReason } from "~/lib/contact-feedback";
import {
  CONTACT_FIELDS,
  type ContactField,
  type ContactFieldSpec,
  EXTRA_CONTACT_FIELDS,
} from "~/lib/contact-fields";
import { EMBED_PATH, EMBED_TOKEN_FIELD } from "~/lib/embed";
import type { UploadLimits } from "~/lib/upload-rules";
import { AttributionFields } from "./attribution-fields";
import {
  CompanyField,
  type Constraint,
  DescriptionField,
  ErrorSummary,
  FORM_ID,
  TextInput,
} from "./contact-fields";
import { LandingSection } from "./landing-section";
import { PrivacyNote } from "./privacy-note";
import { SubmissionSuccess, type SubmittedRequest } from "./submission-success";
import { SubmitProblem } from "./submit-problem";
import { UploadWidget } from "./upload-widget";
import { useContactSubmission } from "./use-contact-submission";
import { VoiceField } from "./voice-field";

/** The page's action data after a refused no-JS post (refusedSubmission of submit.server). */
export type RefusedPost = {
  /** Conform's reply (messages and typed values). */
  result: SubmissionResult<string[]>;
  uploadErrors: string[];
  /** The message that belongs to no field. */
  error?: string;
};

type Props = {
  refused?: RefusedPost;
  /** getZodConstraint(schema), computed on the server. */
  constraint: Record<string, Constraint>;
  limits: UploadLimits;
  affiliateCode: string | null;
  /** Set after a no-JS submission (redirect with ?gesendet=id). */
  submitted: SubmittedRequest | null;
  /** Demo booking switched on (appointmentEventType set). */
  bookingEnabled: boolean;
  privacyNote: { text: string; url: string };
  /** The agency's words (ADR 268): the promise above the form, the message after sending. */
  brandTexts: { promise: string; successMessage: string };
  /** The framed form (/embed, ADR 283): its signed token and attribution instead of cookies. */
  embed?: EmbedFormProps;
};

export type EmbedFormProps = { token: string; attribution: Attribution | null };

const SUBMIT_HINT_ID = "contact-submit-hint";

/**
 * Where the no-JS form posts: the landing page's own path (no "?index", ADR 111), keeping the
 * affiliate code, and `#contact` so the answer with the error summary opens at the form.
 */
export function contactFormAction(affiliateCode: string | null) {
  const search = affiliateCode ? `?${new URLSearchParams({ code: affiliateCode })}` : "";
  return `/${search}#contact`;
}

/**
 * The contact form. Without JS a plain multipart post to the page action (Conform's reply re-fills
 * it, an error summary links to each field). With JS: instant validation by the same schema
 * (loaded on first use), the counter, submit enabled only with name, e-mail and valid phone (a hint
 * says what is missing), the upload to POST /api/requests with progress.
 */
export function ContactForm(props: Props) {
  const form = useContactSubmission({
    lastResult: props.refused?.result,
    submitted: props.submitted,
  });
  const embed = props.embed;
  // Hydrated, with what was typed before adopted (never "hydrated" alone: see `ready`).
  const { ready: hydrated, values, errors, status, progress, initialValue } = form;
  /** What every text input of the form takes from the form state, by field name. */
  const bound = (name: ContactField) => ({
    name,
    defaultValue: initialValue(name),
    constraint: props.constraint[name],
    errors: errors[name],
  });

  const blocked = submitBlockedReason(values, form.phoneInvalid);
  const submitHint = hydrated && status !== "sending" ? blocked : null;
  const uploadErrors = form.uploadErrors ?? props.refused?.uploadErrors;
  const serverFormError = props.refused?.result.error?.[""]?.[0];
  // The no-JS answer's message opens with the page at the form; the JS form's stands above its
  // button (SubmitProblem).
  const formError = props.refused?.error ?? serverFormError ?? null;
  const companyErrors = fieldMessages(
    "companyDescription",
    errors.companyDescription,
    values.companyDescription,
  );

  return (
    <LandingSection
      id="contact"
      title="Erzähl uns von deiner Idee"
      width="max-w-3xl"
      className={embed ? "" : "bg-slate-50 dark:bg-slate-900/50"}
      padding={embed ? "py-6" : "py-16"}
    >
      <p className="mt-2 text-slate-700 dark:text-slate-300">{props.brandTexts.promise}</p>

      {form.submitted ? (
        <SubmissionSuccess
          submitted={form.submitted}
          message={props.brandTexts.successMessage}
          headingRef={form.successRef}
          onAnother={form.replaced ? form.startAnother : undefined}
          bookingEnabled={props.bookingEnabled}
          embedded={Boolean(embed)}
          onBooked={(appointment) => {
            form.setSubmitted((current) => current && { ...current, booked: true, appointment });
            // The history below shows the booked demo too.
            form.revalidate();
          }}
        />
      ) : null}

      <Form
        method="post"
        action={embed ? `${EMBED_PATH}#contact` : contactFormAction(props.affiliateCode)}
        encType="multipart/form-data"
        id={FORM_ID}
        noValidate
        hidden={form.replaced}
        {...form.handlers}
        className="relative mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
      >
        {formError ? <Alert>{formError}</Alert> : null}
        {form.summaryShown || uploadErrors?.length ? (
          // The summary's box is what scrolls into view below the sticky header (ADR 210).
          <div data-reveal="" className="scroll-mt-24">
            <ErrorSummary
              errors={errors}
              uploadErrors={uploadErrors}
              headingRef={form.summaryRef}
            />
          </div>
        ) : null}
        <AttributionFields
          affiliateCode={props.affiliateCode}
          embedAttribution={embed?.attribution}
        />
        {embed ? <input type="hidden" name={EMBED_TOKEN_FIELD} value={embed.token} /> : null}
        <Honeypot id="contact-website" />

        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput {...bound("name")} autoComplete="name" />
          <TextInput {...bound("email")} type="email" autoComplete="email" />
        </div>
        <TextInput {...bound("phone")} type="tel" autoComplete="tel" />
        <CompanyField
          value={values.companyDescription}
          defaultValue={initialValue("companyDescription")}
          constraint={props.constraint.companyDescription}
          invalid={!!errors.companyDescription?.length}
          errors={companyErrors}
        />
        <DescriptionField
          defaultValue={initialValue("description")}
          constraint={props.constraint.description}
          errors={errors.description}
        />
        {EXTRA_CONTACT_FIELDS.map((name) => {
          const { input, min, max } = CONTACT_FIELDS[name] as ContactFieldSpec;
          return (
            <TextInput
              key={name}
              {...bound(name)}
              constraint={{ required: min > 0, maxLength: max }}
              type={input?.type}
              autoComplete={input?.autoComplete}
            />
          );
        })}
        <VoiceField
          open={form.recorderOpen}
          onOpen={() => form.setRecorderOpen(true)}
          resetKey={form.resetKey}
          onChange={(recording) => {
            form.recordingRef.current = recording;
          }}
          control={form.recorderControl}
        />
        <UploadWidget limits={props.limits} serverErrors={uploadErrors} resetKey={form.resetKey} />
        {/* The invisible ALTCHA widget goes here on the first interaction (its hidden `altcha` field). */}
        <div ref={form.altcha.containerRef} hidden />

        {status === "sending" && !form.altcha.waiting ? (
          <div>
            <label htmlFor="upload-progress" className="text-sm">
              Wird gesendet … {Math.round(progress * 100)} %
            </label>
            <progress
              id="upload-progress"
              max={100}
              value={Math.round(progress * 100)}
              className="mt-1 w-full"
            />
          </div>
        ) : null}

        <PrivacyNote
          text={props.privacyNote.text}
          privacyUrl={props.privacyNote.url}
          target={embed ? "_top" : undefined}
        />
        {form.clientError ? (
          <SubmitProblem ref={form.problemRef} message={form.clientError} />
        ) : null}
        <div>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
            <button
              type="submit"
              className={`${buttonClass("primary")} w-full sm:w-auto`}
              disabled={hydrated ? !!blocked || status === "sending" : false}
              aria-describedby={submitHint ? SUBMIT_HINT_ID : undefined}
            >
              {status === "sending" ? "Wird gesendet …" : "Anfrage senden"}
            </button>
            {submitHint ? (
              <p
                id={SUBMIT_HINT_ID}
                className="text-sm text-slate-600 dark:text-slate-400"
                data-testid="contact-submit-hint"
              >
                {submitHint}
              </p>
            ) : null}
          </div>
          {/* The proof of work's status (ADR 250) on its own line below the button; the widget itself
            shows nothing. Always in the page, so a change is announced. */}
          <p
            role="status"
            className="mt-2 text-sm text-slate-600 empty:mt-0 dark:text-slate-400"
            data-testid="altcha-status"
          >
            {form.altcha.statusText}
          </p>
        </div>
      </Form>
    </LandingSection>
  );
}
