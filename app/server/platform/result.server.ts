import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import type { z } from "zod";
import { fieldErrorsOf } from "~/lib/field-errors";
import { redirectWithToast } from "../http/flash.server";
import { firstError, jsonError } from "../http/http.server";

/**
 * The one result type of a domain rule (ADRs 240, 310): `{ok: true, …payload}` or a `Failure`
 * that carries the HTTP status and the German message — decided once, in the domain function.
 * `field` names the input the message is about (a field error on the page, `fieldErrors` in
 * JSON); `fieldErrors` carries several refused fields at once (a form: the submission, the
 * configuration), `error` is then the first of them or a summary.
 */
export type Failure = {
  ok: false;
  status: number;
  error: string;
  field?: string;
  fieldErrors?: Record<string, string[]>;
  /** A 429: seconds until the next try (the `Retry-After` header of the JSON answer). */
  retryAfterSeconds?: number;
};
export type Ok<T extends object = object> = { ok: true } & T;
export type Result<T extends object = object> = Ok<T> | Failure;

export function failure(status: number, error: string, field?: string): Failure {
  return field ? { ok: false, status, error, field } : { ok: false, status, error };
}

/** Several refused fields at once: `error` is the summary (default: the first message). */
export function fieldsFailure(
  status: number,
  fieldErrors: Record<string, string[]>,
  error = firstError(fieldErrors),
): Failure {
  return { ok: false, status, error, fieldErrors };
}

/** A failed parse of a rule's schema: 400 with its first German message (and its field). */
export function invalid(error: z.ZodError): Failure {
  const fieldErrors = fieldErrorsOf(error);
  const field = Object.keys(fieldErrors)[0];
  return failure(400, firstError(fieldErrors), field === "form" ? undefined : field);
}

/** The failure's messages per field (`field` or `fieldErrors`), or undefined. */
export function failureFieldErrors(f: Failure): Record<string, string[]> | undefined {
  if (f.fieldErrors) return f.fieldErrors;
  return f.field ? { [f.field]: [f.error] } : undefined;
}

/** `/api`: `{success: false, error, message[, fieldErrors]}` with the failure's status. */
export function failureJson(f: Failure, headers?: HeadersInit) {
  const retry = f.retryAfterSeconds ? { "Retry-After": String(f.retryAfterSeconds) } : undefined;
  return jsonError(f.error, f.status, {
    fieldErrors: failureFieldErrors(f),
    headers: retry ? { ...Object.fromEntries(new Headers(headers)), ...retry } : headers,
  });
}

/** A page: back to `to` with the message as an error toast. */
export function failureToast(to: string, f: Failure) {
  return redirectWithToast(to, { type: "error", message: f.error });
}

/**
 * A page that cannot show what was asked for (a loader's signed link that is forged, expired,
 * outdated): thrown, its error boundary shows the German message with the failure's status.
 */
export function failurePage(f: Failure) {
  return data(f.error, { status: f.status });
}

/** A Conform form: the messages under their fields, else as the form's error. */
export function failureReply<T>(
  submission: Submission<T>,
  f: Failure,
  options: { hideFields?: string[] } = {},
) {
  const fieldErrors = failureFieldErrors(f);
  return submission.reply({
    ...options,
    ...(fieldErrors ? { fieldErrors } : { formErrors: [f.error] }),
  });
}
