import type { SubmissionResult } from "@conform-to/react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { CONTACT_FIELDS, type ContactField, isContactField } from "~/lib/contact-feedback";
import type { Recording } from "./recorder";
import type { SubmittedRequest } from "./submission-success";

export const SUBMISSION_FAILED = "Es gab einen Fehler beim Senden. Bitte versuche es erneut.";

type Validator = typeof import("./contact-validation");
let validatorPromise: Promise<Validator> | undefined;
/** The schema (and Zod) are loaded on the first interaction with the form, not with the page (ADR 011). */
const loadValidator = () => {
  validatorPromise ??= import("./contact-validation");
  return validatorPromise;
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

const EMPTY: Record<ContactField, string> = {
  name: "",
  email: "",
  phone: "",
  companyDescription: "",
  description: "",
};

/**
 * The contact form's state with JS: typed values (re-filled from Conform's no-JS reply), lazy
 * validation by the same schema, the error summary, and the upload to POST /api/requests.
 */
export function useContactSubmission(options: {
  lastResult?: SubmissionResult<string[]> | null;
  submitted: SubmittedRequest | null;
}) {
  const revalidator = useRevalidator();
  const initial = (options.lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const initialValue = (name: ContactField) => {
    const value = initial[name];
    return typeof value === "string" ? value : "";
  };
  const [values, setValues] = useState<Record<ContactField, string>>(() => {
    const next = { ...EMPTY };
    for (const name of CONTACT_FIELDS) next[name] = initialValue(name);
    return next;
  });
  const [errors, setErrors] = useState<Record<string, string[]>>(() => {
    const found: Record<string, string[]> = {};
    for (const [name, list] of Object.entries(options.lastResult?.error ?? {})) {
      if (name && list?.length) found[name] = list;
    }
    return found;
  });
  // The summary shows after a submission with problems (the no-JS reply or a JS attempt).
  const [summaryShown, setSummaryShown] = useState(() =>
    Object.keys(errors).some((name) => isContactField(name)),
  );
  const summaryRef = useRef<HTMLHeadingElement>(null);
  const touched = useRef(new Set<string>());
  const [validator, setValidator] = useState<Validator | null>(null);
  const [status, setStatus] = useState<"idle" | "sending" | "success" | "error">("idle");
  const [progress, setProgress] = useState(0);
  const [uploadErrors, setUploadErrors] = useState<string[] | null>(null);
  const [clientError, setClientError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<SubmittedRequest | null>(options.submitted);
  const [resetKey, setResetKey] = useState(0);
  const [recorderOpen, setRecorderOpen] = useState(false);
  const recordingRef = useRef<Recording | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The landing page hydrates on the first interaction (ADR 170): what the visitor typed before
  // that is in the fields but not yet in the state (counter, submit hint): adopt it once.
  // `ready` turns true in the same update, so no frame renders the submit disabled for fields
  // that are in fact filled (a click there would be lost).
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    setReady(true);
    // A native POST sent before hydration is still on its way: no second (JS) submission.
    if ((window as { __nativeSubmit?: unknown }).__nativeSubmit === form) setStatus("sending");
    setValues((current) => {
      let next = current;
      for (const name of CONTACT_FIELDS) {
        const field = form.elements.namedItem(name);
        const typed =
          field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement
            ? field.value
            : current[name];
        if (typed !== current[name]) next = { ...next, [name]: typed };
      }
      return next;
    });
  }, []);

  const enableValidation = () => {
    if (!validator) void loadValidator().then((v) => setValidator(() => v));
  };

  /** Validates by the schema; shows messages of the fields already left (or of all on submit). */
  const revalidate = (form: HTMLFormElement, all = false) => {
    if (!validator) return null;
    const found = validator.validateContact(new FormData(form));
    setErrors((current) => {
      const next: Record<string, string[]> = {};
      for (const name of CONTACT_FIELDS) {
        const shown = all || touched.current.has(name) ? found[name] : current[name];
        if (shown?.length) next[name] = shown;
      }
      return next;
    });
    return found;
  };

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (!isContactField(target.name)) return;
    setValues((v) => ({ ...v, [target.name]: target.value }));
    if (touched.current.has(target.name)) revalidate(event.currentTarget);
  };
  const onBlur = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (!isContactField(target.name) || !target.value) return;
    touched.current.add(target.name);
    revalidate(event.currentTarget);
  };

  const showSummary = () => {
    setSummaryShown(true);
    // After React rendered it: the summary's heading takes the focus (it links to each field).
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found = revalidate(form, true);
    if (found && Object.keys(found).length) {
      for (const name of CONTACT_FIELDS) touched.current.add(name);
      showSummary();
      return;
    }
    const formData = new FormData(form);
    // An audio file picked before hydration stays (its input is kept); an empty one goes.
    const picked = formData.get("audio");
    if (!(picked instanceof File && picked.size > 0)) formData.delete("audio");
    const recording = recordingRef.current;
    if (recording) formData.set("audio", recording.blob, "sprachnachricht.webm");
    setStatus("sending");
    setProgress(0);
    setClientError(null);
    setUploadErrors(null);
    try {
      const { status: code, body } = await sendWithProgress(formData, setProgress);
      if (code === 201 && body && typeof body.id === "number") {
        setSubmitted({ id: body.id, name: String(body.name ?? ""), booked: false });
        setStatus("success");
        setErrors({});
        setSummaryShown(false);
        touched.current.clear();
        form.reset();
        setValues({ ...EMPTY });
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
      setUploadErrors(uploadProblems);
      const message = typeof body?.error === "string" ? body.error : SUBMISSION_FAILED;
      setClientError(Object.keys(fieldErrors).length || uploadProblems ? null : message);
      setStatus("error");
      if (Object.keys(fieldErrors).some((name) => isContactField(name))) showSummary();
    } catch (error) {
      setClientError(error instanceof Error && error.message ? error.message : SUBMISSION_FAILED);
      setStatus("error");
    }
  };

  const phoneInvalid = values.phone.trim()
    ? !!validator?.phoneError(values.phone) || !!errors.phone?.length
    : false;

  return {
    ready,
    initialValue,
    values,
    errors,
    summaryShown,
    summaryRef,
    status,
    progress,
    uploadErrors,
    clientError: status === "error" ? clientError : null,
    submitted,
    setSubmitted,
    resetKey,
    recorderOpen,
    setRecorderOpen,
    recordingRef,
    phoneInvalid,
    handlers: {
      ref: formRef,
      onSubmit,
      onInput,
      onBlur,
      onFocus: enableValidation,
      onPointerEnter: enableValidation,
    },
    revalidate: () => revalidator.revalidate(),
  };
}
