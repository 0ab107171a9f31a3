import type { SubmissionResult } from "@conform-to/react";
import { type FormEvent, lazy, Suspense, useRef, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { MicIcon } from "~/components/ui/icons";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { UploadLimits } from "~/lib/upload-rules";
import { AttributionFields } from "./attribution-fields";
import { PrivacyNote } from "./privacy-note";
import type { Recording } from "./recorder";
import { SubmissionSuccess, type SubmittedRequest } from "./submission-success";
import { UploadWidget } from "./upload-widget";

const Recorder = lazy(() => import("./recorder"));

type Validator = typeof import("./contact-validation");
let validatorPromise: Promise<Validator> | undefined;
/** The schema (and Zod) are loaded on the first interaction with the form, not with the page. */
const loadValidator = () => {
  validatorPromise ??= import("./contact-validation");
  return validatorPromise;
};

export const SUBMISSION_FAILED = "Es gab einen Fehler beim Senden. Bitte versuche es erneut.";
const FORM_ID = "contact-form";
const COMPANY_MIN = 20;
const TRACKED = ["name", "email", "phone", "companyDescription", "description"] as const;
type Tracked = (typeof TRACKED)[number];
const isTracked = (name: string): name is Tracked => (TRACKED as readonly string[]).includes(name);
const labelClass = "mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200";

type Constraint = { required?: boolean; minLength?: number; maxLength?: number };

type Props = {
  /** Conform's reply of the no-JS action (messages and typed values). */
  lastResult?: SubmissionResult<string[]> | null;
  serverUploadErrors?: string[];
  formError?: string;
  /** getZodConstraint(schema), computed on the server. */
  constraint: Record<string, Constraint>;
  limits: UploadLimits;
  affiliateCode: string | null;
  /** Set after a no-JS submission (redirect with ?gesendet=id). */
  submitted: SubmittedRequest | null;
  /** Demo booking switched on (appointmentEventType set). */
  bookingEnabled: boolean;
  privacyNote: { text: string; url: string };
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

const fieldId = (name: string) => `${FORM_ID}-${name}`;
const errorId = (name: string) => `${FORM_ID}-${name}-error`;

function TextInput({
  name,
  label,
  type = "text",
  autoComplete,
  defaultValue,
  constraint,
  errors,
}: {
  name: Tracked;
  label: string;
  type?: string;
  autoComplete?: string;
  defaultValue: string;
  constraint?: Constraint;
  errors?: string[];
}) {
  return (
    <div>
      <label htmlFor={fieldId(name)} className={labelClass}>
        {label}{" "}
        <span aria-hidden="true" className="text-red-600">
          *
        </span>
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
 * The contact form. Without JS a plain multipart post to the page action (Conform's reply re-fills
 * it). With JS: instant validation by the same schema (loaded on first use), the counter, submit
 * enabled only with name, e-mail and valid phone, the upload to POST /api/requests with progress.
 */
export function ContactForm(props: Props) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const initial = (props.lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const initialValue = (name: Tracked) => {
    const value = initial[name];
    return typeof value === "string" ? value : "";
  };
  const [values, setValues] = useState<Record<Tracked, string>>(() => ({
    name: initialValue("name"),
    email: initialValue("email"),
    phone: initialValue("phone"),
    companyDescription: initialValue("companyDescription"),
    description: initialValue("description"),
  }));
  const [errors, setErrors] = useState<Record<string, string[]>>(() => {
    const found: Record<string, string[]> = {};
    for (const [name, list] of Object.entries(props.lastResult?.error ?? {})) {
      if (name && list?.length) found[name] = list;
    }
    return found;
  });
  const touched = useRef(new Set<string>());
  const [validator, setValidator] = useState<Validator | null>(null);
  const [status, setStatus] = useState<"idle" | "sending" | "success" | "error">("idle");
  const [progress, setProgress] = useState(0);
  const [clientUploadErrors, setClientUploadErrors] = useState<string[] | null>(null);
  const [clientError, setClientError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<SubmittedRequest | null>(props.submitted);
  const [resetKey, setResetKey] = useState(0);
  const [recorderOpen, setRecorderOpen] = useState(false);
  const recordingRef = useRef<Recording | null>(null);

  const enableValidation = () => {
    if (!validator) void loadValidator().then((v) => setValidator(() => v));
  };

  /** Validates by the schema; shows messages of the fields already left (or of all on submit). */
  const revalidate = (form: HTMLFormElement, all = false) => {
    if (!validator) return null;
    const found = validator.validateContact(new FormData(form));
    setErrors((current) => {
      const next: Record<string, string[]> = {};
      for (const name of TRACKED) {
        const shown = all || touched.current.has(name) ? found[name] : current[name];
        if (shown?.length) next[name] = shown;
      }
      return next;
    });
    return found;
  };

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (!isTracked(target.name)) return;
    setValues((v) => ({ ...v, [target.name]: target.value }));
    if (touched.current.has(target.name)) revalidate(event.currentTarget);
  };
  const onBlur = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (!isTracked(target.name) || !target.value) return;
    touched.current.add(target.name);
    revalidate(event.currentTarget);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found = revalidate(form, true);
    if (found && Object.keys(found).length) {
      for (const name of TRACKED) touched.current.add(name);
      form.querySelector<HTMLElement>(`[name="${Object.keys(found)[0]}"]`)?.focus();
      return;
    }
    const formData = new FormData(form);
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
        setErrors({});
        touched.current.clear();
        form.reset();
        setValues({ name: "", email: "", phone: "", companyDescription: "", description: "" });
        recordingRef.current = null;
        setRecorderOpen(false);
        setResetKey((k) => k + 1);
        revalidator.revalidate();
        return;
      }
      const { attachments: _files, ...fieldErrors } = (body?.fieldErrors ?? {}) as Record<
        string,
        string[]
      >;
      const uploadProblems = Array.isArray(body?.uploadErrors)
        ? (body.uploadErrors as string[])
        : null;
      setErrors(fieldErrors);
      setClientUploadErrors(uploadProblems);
      const message = typeof body?.error === "string" ? body.error : SUBMISSION_FAILED;
      setClientError(Object.keys(fieldErrors).length || uploadProblems ? null : message);
      setStatus("error");
    } catch (error) {
      setClientError(error instanceof Error && error.message ? error.message : SUBMISSION_FAILED);
      setStatus("error");
    }
  };

  const phoneProblem = values.phone.trim()
    ? (validator?.phoneError(values.phone) ?? null)
    : "missing";
  const canSubmit =
    !!values.name.trim() &&
    !!values.email.trim() &&
    !phoneProblem &&
    !errors.phone?.length &&
    status !== "sending";
  const uploadErrors = clientUploadErrors ?? props.serverUploadErrors;
  const serverFormError = props.lastResult?.error?.[""]?.[0];
  const formError =
    (status === "error" ? clientError : null) ?? props.formError ?? serverFormError ?? null;
  const company = values.companyDescription;

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
          <SubmissionSuccess
            submitted={submitted}
            bookingEnabled={props.bookingEnabled}
            onBooked={(appointment) => {
              setSubmitted((current) => current && { ...current, booked: true, appointment });
              // The history below shows the booked demo too.
              revalidator.revalidate();
            }}
          />
        ) : null}

        <Form
          method="post"
          encType="multipart/form-data"
          id={FORM_ID}
          noValidate
          onSubmit={onSubmit}
          onInput={onInput}
          onBlur={onBlur}
          onFocus={enableValidation}
          onPointerEnter={enableValidation}
          className="relative mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
        >
          {formError ? <Alert>{formError}</Alert> : null}
          <AttributionFields affiliateCode={props.affiliateCode} />
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
            <TextInput
              name="name"
              label="Name"
              autoComplete="name"
              defaultValue={initialValue("name")}
              constraint={props.constraint.name}
              errors={errors.name}
            />
            <TextInput
              name="email"
              label="E-Mail"
              type="email"
              autoComplete="email"
              defaultValue={initialValue("email")}
              constraint={props.constraint.email}
              errors={errors.email}
            />
          </div>
          <TextInput
            name="phone"
            label="Telefon"
            type="tel"
            autoComplete="tel"
            defaultValue={initialValue("phone")}
            constraint={props.constraint.phone}
            errors={errors.phone}
          />

          <div>
            <label htmlFor={fieldId("companyDescription")} className={labelClass}>
              Beschreibe dein Unternehmen{" "}
              <span aria-hidden="true" className="text-red-600">
                *
              </span>
            </label>
            <textarea
              id={fieldId("companyDescription")}
              name={"companyDescription"}
              defaultValue={initialValue("companyDescription")}
              required={props.constraint.companyDescription?.required}
              minLength={props.constraint.companyDescription?.minLength}
              maxLength={props.constraint.companyDescription?.maxLength}
              rows={3}
              className={inputClass}
              aria-invalid={errors.companyDescription?.length ? true : undefined}
              aria-describedby={`${fieldId("companyDescription")}-counter${errors.companyDescription?.length ? ` ${errorId("companyDescription")}` : ""}`}
            />
            <p
              id={`${fieldId("companyDescription")}-counter`}
              className={`mt-1 text-xs ${company.length < COMPANY_MIN ? "text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400"}`}
              data-testid="company-counter"
            >
              {company.length}/{COMPANY_MIN} Zeichen (mindestens)
            </p>
            <FieldErrors id={errorId("companyDescription")} errors={errors.companyDescription} />
          </div>

          <div>
            <label htmlFor={fieldId("description")} className={labelClass}>
              Deine Projektidee (optional)
            </label>
            <textarea
              id={fieldId("description")}
              name={"description"}
              defaultValue={initialValue("description")}
              maxLength={props.constraint.description?.maxLength}
              rows={6}
              placeholder="Was soll die Software können? Wer nutzt sie?"
              className={inputClass}
            />
            <FieldErrors id={errorId("description")} errors={errors.description} />
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
                  <MicIcon /> Sprachnachricht aufnehmen
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

          <PrivacyNote text={props.privacyNote.text} privacyUrl={props.privacyNote.url} />
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
