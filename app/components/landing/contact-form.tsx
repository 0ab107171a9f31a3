import {
  type FieldMetadata,
  getFormProps,
  type Submission,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { lazy, Suspense, useRef, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { formatRequestId } from "~/lib/format";
import type { UploadLimits } from "~/lib/upload-rules";
import { BookingOffer } from "./booking-offer";
import type { Recording } from "./recorder";
import { UploadWidget } from "./upload-widget";
import { useHydrated } from "./use-hydrated";

const Recorder = lazy(() => import("./recorder"));

type FormShape = {
  name: string;
  email: string;
  phone: string;
  companyDescription: string;
  description: string;
};

/** Zod and the schema are loaded on the first interaction with the form, not with the page. */
type Validator = {
  validate: (formData: FormData) => Submission<FormShape, string[]>;
  phoneError: (raw: string) => string | null;
};
let validatorPromise: Promise<Validator> | undefined;
function loadValidator() {
  validatorPromise ??= Promise.all([
    import("~/lib/request-form"),
    import("@conform-to/zod/v4"),
  ]).then(([form, zod]) => ({
    validate: (formData: FormData) =>
      zod.parseWithZod(formData, { schema: form.RequestFormSchema }) as unknown as Submission<
        FormShape,
        string[]
      >,
    phoneError: form.phoneError,
  }));
  return validatorPromise;
}

export const SUBMISSION_FAILED = "Es gab einen Fehler beim Senden. Bitte versuche es erneut.";
const COMPANY_MIN = 20;
const labelClass = "mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200";

export type SubmittedRequest = { id: number; name: string; booked: boolean };

type Props = {
  lastResult?: SubmissionResult<string[]> | null;
  serverUploadErrors?: string[];
  formError?: string;
  constraint: Record<
    string,
    { required?: boolean; minLength?: number; maxLength?: number; pattern?: string }
  >;
  limits: UploadLimits;
  affiliateCode: string | null;
  /** Set after a no-JS submission (redirect with ?gesendet=id). */
  submitted: SubmittedRequest | null;
};

function sendWithProgress(formData: FormData, onProgress: (fraction: number) => void) {
  return new Promise<{ status: number; body: Record<string, unknown> | null }>(
    (resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/api/requests");
      xhr.responseType = "json";
      xhr.timeout = 300_000;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
      xhr.onerror = () => reject(new Error(SUBMISSION_FAILED));
      xhr.ontimeout = () => reject(new Error(SUBMISSION_FAILED));
      xhr.send(formData);
    },
  );
}

function TextInput({
  field,
  label,
  type = "text",
  autoComplete,
}: {
  field: FieldMetadata<string>;
  label: string;
  type?: string;
  autoComplete?: string;
}) {
  return (
    <div>
      <label htmlFor={field.id} className={labelClass}>
        {label}{" "}
        <span aria-hidden="true" className="text-red-600">
          *
        </span>
      </label>
      <input
        key={field.key}
        id={field.id}
        name={field.name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={field.initialValue}
        required={field.required}
        maxLength={field.maxLength}
        className={inputClass}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function ContactForm(props: Props) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [validator, setValidator] = useState<Validator | null>(null);
  const [status, setStatus] = useState<"idle" | "sending" | "success" | "error">("idle");
  const [progress, setProgress] = useState(0);
  const [clientResult, setClientResult] = useState<SubmissionResult<string[]> | null>(null);
  const [clientUploadErrors, setClientUploadErrors] = useState<string[] | null>(null);
  const [clientError, setClientError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<SubmittedRequest | null>(props.submitted);
  const [resetKey, setResetKey] = useState(0);
  const [recorderOpen, setRecorderOpen] = useState(false);
  const recordingRef = useRef<Recording | null>(null);

  const [form, fields] = useForm<FormShape>({
    id: "contact-form",
    lastResult: clientResult ?? props.lastResult,
    constraint: props.constraint,
    // Until the schema is loaded, validation intents would go to the server: validate on submit only.
    shouldValidate: validator ? "onBlur" : "onSubmit",
    shouldRevalidate: validator ? "onInput" : "onSubmit",
    onValidate: validator ? ({ formData }) => validator.validate(formData) : undefined,
    async onSubmit(event, { formData }) {
      event.preventDefault();
      formData.delete("audio");
      if (recordingRef.current)
        formData.set("audio", recordingRef.current.blob, "sprachnachricht.webm");
      setStatus("sending");
      setProgress(0);
      setClientError(null);
      setClientUploadErrors(null);
      try {
        const { status: code, body } = await sendWithProgress(formData, setProgress);
        if (code === 201 && body && typeof body.id === "number") {
          setSubmitted({ id: body.id, name: String(body.name ?? ""), booked: false });
          setStatus("success");
          setClientResult(null);
          // A native reset (Conform listens to it) instead of a reset intent, which needs no server.
          document.forms.namedItem(form.id)?.reset();
          recordingRef.current = null;
          setRecorderOpen(false);
          setResetKey((k) => k + 1);
          revalidator.revalidate();
          return;
        }
        const fieldErrors = (body?.fieldErrors ?? {}) as Record<string, string[]>;
        const { attachments: _files, ...textErrors } = fieldErrors;
        const initialValue: Record<string, string> = {};
        for (const [k, v] of formData.entries()) if (typeof v === "string") initialValue[k] = v;
        setClientResult({ status: "error", initialValue, error: textErrors });
        setClientUploadErrors(
          Array.isArray(body?.uploadErrors) ? (body.uploadErrors as string[]) : null,
        );
        setClientError(typeof body?.error === "string" ? body.error : SUBMISSION_FAILED);
        setStatus("error");
      } catch (error) {
        setClientError(error instanceof Error && error.message ? error.message : SUBMISSION_FAILED);
        setStatus("error");
      }
    },
  });

  const enableValidation = () => {
    if (!validator) void loadValidator().then((v) => setValidator(() => v));
  };

  const name = fields.name.value ?? "";
  const email = fields.email.value ?? "";
  const phone = fields.phone.value ?? "";
  const company = fields.companyDescription.value ?? "";
  const phoneProblem = phone ? (validator?.phoneError(phone) ?? null) : "missing";
  const canSubmit =
    !!name.trim() &&
    !!email.trim() &&
    !phoneProblem &&
    !fields.phone.errors?.length &&
    status !== "sending";

  const uploadErrors = clientUploadErrors ?? props.serverUploadErrors;
  const formError = hydrated
    ? ((status === "error" ? clientError : null) ?? props.formError)
    : props.formError;
  const topError = form.errors?.length ? form.errors[0] : null;

  return (
    <section
      id="contact"
      aria-labelledby="contact-title"
      className="bg-slate-50 px-4 py-16 sm:px-6 dark:bg-slate-900/50"
    >
      <div className="mx-auto max-w-3xl">
        <h2
          id="contact-title"
          className="text-2xl font-bold text-slate-900 sm:text-3xl dark:text-white"
        >
          Erzähl uns von deiner Idee
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          Wir melden uns innerhalb eines Werktags und liefern deine Testversion innerhalb von drei
          Tagen.
        </p>

        {submitted ? (
          <div
            role="status"
            className="mt-6 rounded-xl border border-green-200 bg-green-50 p-5 dark:border-green-900 dark:bg-green-950"
            data-testid="submission-success"
          >
            <p className="text-lg font-semibold text-green-900 dark:text-green-100">
              {`Vielen Dank${submitted.name ? `, ${submitted.name}` : ""}! Deine Anfrage #${formatRequestId(submitted.id)} ist bei uns eingegangen.`}
            </p>
            <p className="mt-1 text-green-900 dark:text-green-100">
              Wir sehen sie uns sofort an. Deine Testversion bekommst du innerhalb von drei Tagen.
            </p>
            {submitted.booked ? null : (
              <BookingOffer requestId={submitted.id} requesterName={submitted.name} />
            )}
          </div>
        ) : null}

        <Form
          method="post"
          encType="multipart/form-data"
          {...getFormProps(form)}
          onFocus={enableValidation}
          onPointerEnter={enableValidation}
          className="relative mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
        >
          {formError || topError ? <Alert>{formError ?? topError}</Alert> : null}
          {props.affiliateCode ? (
            <input type="hidden" name="affiliateCode" value={props.affiliateCode} />
          ) : null}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label htmlFor="contact-website">Website (bitte leer lassen)</label>
            <input
              id="contact-website"
              type="text"
              name="website"
              tabIndex={-1}
              autoComplete="off"
            />
          </div>

          <div className="grid gap-5 sm:grid-cols-2">
            <TextInput field={fields.name} label="Name" autoComplete="name" />
            <TextInput field={fields.email} label="E-Mail" type="email" autoComplete="email" />
          </div>
          <TextInput field={fields.phone} label="Telefon" type="tel" autoComplete="tel" />

          <div>
            <label htmlFor={fields.companyDescription.id} className={labelClass}>
              Beschreibe dein Unternehmen{" "}
              <span aria-hidden="true" className="text-red-600">
                *
              </span>
            </label>
            <textarea
              key={fields.companyDescription.key}
              id={fields.companyDescription.id}
              name={fields.companyDescription.name}
              defaultValue={fields.companyDescription.initialValue}
              required={fields.companyDescription.required}
              minLength={fields.companyDescription.minLength}
              maxLength={fields.companyDescription.maxLength}
              rows={3}
              className={inputClass}
              aria-invalid={fields.companyDescription.errors?.length ? true : undefined}
              aria-describedby={`${fields.companyDescription.id}-counter${fields.companyDescription.errors?.length ? ` ${fields.companyDescription.errorId}` : ""}`}
            />
            <p
              id={`${fields.companyDescription.id}-counter`}
              className={`mt-1 text-xs ${company.length < COMPANY_MIN ? "text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400"}`}
              data-testid="company-counter"
            >
              {company.length}/{COMPANY_MIN} Zeichen (mindestens)
            </p>
            <FieldErrors
              id={fields.companyDescription.errorId}
              errors={fields.companyDescription.errors}
            />
          </div>

          <div>
            <label htmlFor={fields.description.id} className={labelClass}>
              Deine Projektidee (optional)
            </label>
            <textarea
              key={fields.description.key}
              id={fields.description.id}
              name={fields.description.name}
              defaultValue={fields.description.initialValue}
              maxLength={fields.description.maxLength}
              rows={6}
              placeholder="Was soll die Software können? Wer nutzt sie?"
              className={inputClass}
            />
            <FieldErrors id={fields.description.errorId} errors={fields.description.errors} />
          </div>

          <div>
            <span className={labelClass} id="voice-label">
              Sprachnachricht (optional)
            </span>
            {hydrated ? (
              recorderOpen ? (
                <Suspense fallback={<p className="text-sm">Rekorder wird geladen …</p>}>
                  <Recorder
                    key={resetKey}
                    autoStart
                    onChange={(recording) => {
                      recordingRef.current = recording;
                    }}
                  />
                </Suspense>
              ) : (
                <button
                  type="button"
                  className={buttonClass("secondary", "sm")}
                  onClick={() => setRecorderOpen(true)}
                >
                  🎙️ Sprachnachricht aufnehmen
                </button>
              )
            ) : (
              <input
                type="file"
                name="audio"
                accept="audio/*"
                aria-labelledby="voice-label"
                className="block w-full text-sm text-slate-700 dark:text-slate-300"
              />
            )}
          </div>

          <UploadWidget limits={props.limits} serverErrors={uploadErrors} resetKey={resetKey} />

          {status === "sending" ? (
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

          <p className="text-xs text-slate-600 dark:text-slate-400">
            Mit dem Absenden stimmst du der Verarbeitung deiner Angaben zur Bearbeitung deiner
            Anfrage zu.
          </p>
          <button
            type="submit"
            className={`${buttonClass("primary")} w-full sm:w-auto`}
            disabled={hydrated ? !canSubmit : false}
          >
            {status === "sending" ? "Wird gesendet …" : "Anfrage senden"}
          </button>
        </Form>
      </div>
    </section>
  );
}
