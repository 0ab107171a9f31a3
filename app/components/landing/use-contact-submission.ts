import type { SubmissionResult } from "@conform-to/react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { reveal } from "~/components/ui/reveal";
import { ALTCHA_FIELD } from "~/lib/altcha";
import {
  CONTACT_FIELD_NAMES,
  type ContactField,
  emptyContactValues,
  isContactField,
} from "~/lib/contact-fields";
import { newSubmissionKey, submissionFailure } from "~/lib/submission-outcome";
import { UPLOAD_ERROR_HEADING } from "~/lib/upload-rules";
import type { RecorderControl, Recording } from "./recorder";
import { sendContactRequest } from "./send-request";
import type { SubmittedRequest } from "./submission-success";
import { useAltcha } from "./use-altcha";

type Validator = typeof import("./contact-validation");
let validatorPromise: Promise<Validator> | undefined;
/** The schema (and Zod) are loaded on the first interaction with the form, not with the page (ADR 011). */
const loadValidator = () => {
  validatorPromise ??= import("./contact-validation");
  return validatorPromise;
};

/** Which result takes the focus and the viewport after a submission (ADR 210). */
type Reveal = { target: "success" | "summary" | "problem"; n: number };

/**
 * The contact form's state with JS: typed values (re-filled from Conform's no-JS reply), lazy
 * validation by the same schema, the error summary, and the upload to POST /api/requests.
 */
export function useContactSubmission(options: {
  lastResult?: SubmissionResult<string[]> | null;
  submitted: SubmittedRequest | null;
}) {
  const revalidator = useRevalidator();
  const altcha = useAltcha();
  const initial = (options.lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const initialValue = (name: ContactField) => {
    const value = initial[name];
    return typeof value === "string" ? value : "";
  };
  const [values, setValues] = useState<Record<ContactField, string>>(() => {
    const next = emptyContactValues();
    for (const name of CONTACT_FIELD_NAMES) next[name] = initialValue(name);
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
  const recorderControl = useRef<RecorderControl | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // After a JS submission the thank-you takes the form's place (the no-JS answer page keeps both).
  const [replaced, setReplaced] = useState(false);
  const successRef = useRef<HTMLHeadingElement>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  const [revealed, setRevealed] = useState<Reveal | null>(null);
  const show = (target: Reveal["target"]) =>
    setRevealed((current) => ({ target, n: (current?.n ?? 0) + 1 }));
  // After React rendered the result: it takes the viewport and the focus.
  useEffect(() => {
    if (!revealed) return;
    const refs = { success: successRef, summary: summaryRef, problem: problemRef };
    reveal(refs[revealed.target].current, {
      block: revealed.target === "problem" ? "nearest" : "start",
    });
  }, [revealed]);
  /**
   * The Idempotency-Key of the submission under way: kept while its answer is unknown, so a retry
   * of a lost answer is answered with the request already created instead of a second one.
   */
  const keyRef = useRef<string | null>(null);
  const sendingRef = useRef(false);

  // Leaving with files, a recording or a submission under way asks first (nothing given is lost).
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      const form = formRef.current;
      if (!form) return;
      const unsent =
        sendingRef.current ||
        (!form.hidden && unsentWork(form, recordingRef.current, recorderControl.current));
      if (unsent) event.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, []);

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
      for (const name of CONTACT_FIELD_NAMES) {
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
    // The proof of work starts with the first interaction too (ADR 250).
    altcha.start();
  };

  /** Validates by the schema; shows messages of the fields already left (or of all on submit). */
  const revalidate = (form: HTMLFormElement, all = false) => {
    if (!validator) return null;
    const found = validator.validateContact(new FormData(form));
    setErrors((current) => {
      const next: Record<string, string[]> = {};
      for (const name of CONTACT_FIELD_NAMES) {
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
    // The summary's heading takes the viewport and the focus (it links to each field).
    show("summary");
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sendingRef.current) return;
    const form = event.currentTarget;
    const found = revalidate(form, true);
    if (found && Object.keys(found).length) {
      for (const name of CONTACT_FIELD_NAMES) touched.current.add(name);
      showSummary();
      return;
    }
    sendingRef.current = true;
    setStatus("sending");
    setProgress(0);
    setClientError(null);
    setUploadErrors(null);
    // A recording still running is stopped and sent along (never dropped without a word).
    await recorderControl.current?.finish();
    // Never sent before the proof of work is done (the status line says why it waits).
    const solution = await altcha.solution();
    const formData = new FormData(form);
    if (solution) formData.set(ALTCHA_FIELD, solution);
    else formData.delete(ALTCHA_FIELD);
    // An audio file picked before hydration stays (its input is kept); an empty one goes.
    const picked = formData.get("audio");
    if (!(picked instanceof File && picked.size > 0)) formData.delete("audio");
    const recording = recordingRef.current;
    if (recording) formData.set("audio", recording.blob, "sprachnachricht.webm");
    keyRef.current ??= newSubmissionKey();
    const outcome = await sendContactRequest(formData, {
      idempotencyKey: keyRef.current,
      onProgress: setProgress,
    });
    sendingRef.current = false;
    const body = outcome.kind === "answer" ? outcome.body : null;
    if (outcome.kind === "answer" && outcome.status === 201 && typeof body?.id === "number") {
      keyRef.current = null;
      altcha.used();
      // From the framed form: the signed link to the booking page (ADR 283).
      const embed = body.embed as { bookingPath?: unknown } | undefined;
      setSubmitted({
        id: body.id,
        name: String(body.name ?? ""),
        booked: false,
        bookingHref: typeof embed?.bookingPath === "string" ? embed.bookingPath : null,
      });
      setStatus("success");
      setErrors({});
      setSummaryShown(false);
      touched.current.clear();
      form.reset();
      setValues(emptyContactValues());
      recordingRef.current = null;
      setRecorderOpen(false);
      setResetKey((k) => k + 1);
      setReplaced(true);
      show("success");
      revalidator.revalidate();
      return;
    }
    const failure = submissionFailure(outcome);
    if (!failure.keepKey) keyRef.current = null;
    const { attachments: _files, ...fieldErrors } = (body?.fieldErrors ?? {}) as Record<
      string,
      string[]
    >;
    const uploadProblems = Array.isArray(body?.uploadErrors)
      ? (body.uploadErrors as string[])
      : null;
    setErrors(fieldErrors);
    setUploadErrors(uploadProblems);
    setStatus("error");
    if (Object.keys(fieldErrors).some((name) => isContactField(name))) {
      setClientError(null);
      showSummary();
      return;
    }
    // Everything else (no connection, no answer, the server's refusal, a refused file) is said
    // above the button, where the visitor is; the typed text, files and recording stay for a retry.
    setClientError(
      uploadProblems?.length
        ? `${UPLOAD_ERROR_HEADING} ${uploadProblems.join(" ")}`
        : failure.message,
    );
    show("problem");
  };

  /** "Weitere Anfrage senden": the emptied form comes back in the thank-you's place. */
  const startAnother = () => {
    setReplaced(false);
    setSubmitted(null);
    setStatus("idle");
    requestAnimationFrame(() => {
      const name = formRef.current?.elements.namedItem("name");
      if (name instanceof HTMLElement) reveal(name, { block: "center" });
    });
  };

  const phoneInvalid = values.phone.trim()
    ? !!validator?.phoneError(values.phone) || !!errors.phone?.length
    : false;

  return {
    ready,
    altcha,
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
    recorderControl,
    replaced,
    startAnother,
    successRef,
    problemRef,
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

/** Files picked, a recording made or running: what leaving the page would lose. */
function unsentWork(
  form: HTMLFormElement,
  recording: Recording | null,
  recorder: RecorderControl | null,
): boolean {
  if (recording || recorder?.recording()) return true;
  for (const name of ["attachments", "audio"]) {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement && input.files?.length) return true;
  }
  return false;
}
